package io.github.resiliencestarter.timeout;

/** Hears how guarded calls end, for metrics. Must be fast and must not throw. */
@FunctionalInterface
public interface TimeoutObserver {

    /** Hears nothing. */
    TimeoutObserver NOOP = (operation, outcome, nanos) -> { };

    /**
     * A guarded call ended.
     *
     * @param operation the operation name
     * @param outcome how it ended
     * @param nanos how long the caller waited
     */
    void onOutcome(String operation, TimeoutOutcome outcome, long nanos);
}
