package io.github.resiliencestarter.messaging;

/** Told what the message adapters do on their own (the metrics implement it). */
public interface MessageObserver {

    /** Observes nothing. */
    MessageObserver NONE = destination -> { };

    /**
     * A message arrived after its deadline and was dropped without running its listener.
     *
     * @param destination the queue or topic it came from
     */
    void onExpired(String destination);
}
