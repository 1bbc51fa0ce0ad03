package io.github.resiliencestarter.chaos;

/** Hears every injected fault, for metrics. Must be fast and must not throw. */
@FunctionalInterface
public interface ChaosObserver {

    /** Hears nothing. */
    ChaosObserver NOOP = (fault, kind) -> { };

    /**
     * A fault was injected.
     *
     * @param fault the fault's name
     * @param kind {@code latency}, {@code exception} or {@code status}
     */
    void onInjected(String fault, String kind);
}
