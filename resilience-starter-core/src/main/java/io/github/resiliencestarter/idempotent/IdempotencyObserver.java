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
}
