package io.github.resiliencestarter.idempotent;

/** Hears idempotency outcomes, for metrics. Must be fast and must not throw. */
@FunctionalInterface
public interface IdempotencyObserver {

    /** Hears nothing. */
    IdempotencyObserver NOOP = (operation, outcome) -> { };

    /**
     * An outcome happened.
     *
     * @param operation the operation name
     * @param outcome what happened
     */
    void onOutcome(String operation, IdempotencyOutcome outcome);

    /**
     * One observer that tells all of {@code observers}, in order.
     *
     * @param observers the observers
     * @return the combined observer
     */
    static IdempotencyObserver composite(java.util.List<? extends IdempotencyObserver> observers) {
        if (observers.isEmpty()) {
            return NOOP;
        }
        IdempotencyObserver[] all = observers.toArray(new IdempotencyObserver[0]);
        return all.length == 1 ? all[0] : (operation, outcome) -> {
            for (IdempotencyObserver observer : all) {
                observer.onOutcome(operation, outcome);
            }
        };
    }
}
