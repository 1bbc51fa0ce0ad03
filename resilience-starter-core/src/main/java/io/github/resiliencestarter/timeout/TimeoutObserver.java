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
        return all.length == 1 ? all[0] : (operation, outcome, nanos) -> {
            for (TimeoutObserver observer : all) {
                observer.onOutcome(operation, outcome, nanos);
            }
        };
    }
}
