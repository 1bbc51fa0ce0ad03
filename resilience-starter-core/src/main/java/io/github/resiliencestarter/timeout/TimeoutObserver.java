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

    /**
     * An annotated method's limit was configured (at its first call, and again after a reload),
     * for a dashboard to compare its latency with.
     *
     * @param operation the operation name
     * @param limit the configured limit
     */
    default void onLimit(String operation, java.time.Duration limit) {
    }

    /**
     * One observer that tells all of {@code observers}, in order.
     *
     * @param observers the observers
     * @return the combined observer
     */
    static TimeoutObserver composite(java.util.List<? extends TimeoutObserver> observers) {
        if (observers.isEmpty()) {
            return NOOP;
        }
        TimeoutObserver[] all = observers.toArray(new TimeoutObserver[0]);
        return all.length == 1 ? all[0] : new TimeoutObserver() {
            @Override
            public void onOutcome(String operation, TimeoutOutcome outcome, long nanos) {
                for (TimeoutObserver observer : all) {
                    observer.onOutcome(operation, outcome, nanos);
                }
            }

            @Override
            public void onLimit(String operation, java.time.Duration limit) {
                for (TimeoutObserver observer : all) {
                    observer.onLimit(operation, limit);
                }
            }
        };
    }
}
