package io.github.resiliencestarter.retry;

import org.jspecify.annotations.Nullable;

/**
 * Hears what a {@link Retrier} does, for metrics and tracing. Called on the calling thread;
 * implementations must be fast and must not throw.
 */
public interface RetryObserver {

    /** Hears nothing. */
    RetryObserver NOOP = new RetryObserver() {
    };

    /**
     * A retry is about to wait and then run.
     *
     * @param operation the operation name
     * @param nextAttempt the attempt about to run (2 for the first retry)
     * @param error the failure that caused the retry
     * @param delayNanos the wait before it
     */
    default void onRetry(String operation, int nextAttempt, @Nullable Throwable error, long delayNanos) {
    }

    /**
     * A hedge started: a parallel attempt beside the ones still in flight.
     *
     * @param operation the operation name
     * @param attempt the hedge's attempt number
     * @param delayNanos how long the call had waited for the attempts in flight
     */
    default void onHedge(String operation, int attempt, long delayNanos) {
    }

    /**
     * A hedge won: its result was accepted and the other attempts were cancelled.
     *
     * @param operation the operation name
     * @param attempt the winning hedge's attempt number
     */
    default void onHedgeWon(String operation, int attempt) {
    }

    /**
     * The call ended.
     *
     * @param operation the operation name
     * @param outcome how it ended
     * @param attempts the attempts made
     */
    default void onComplete(String operation, RetryOutcome outcome, int attempts) {
    }

    /**
     * The call ended, with the time it took; by default the same as
     * {@link #onComplete(String, RetryOutcome, int)}.
     *
     * @param operation the operation name
     * @param outcome how it ended
     * @param attempts the attempts made
     * @param nanos the whole call's duration, waits included
     */
    default void onComplete(String operation, RetryOutcome outcome, int attempts, long nanos) {
        onComplete(operation, outcome, attempts);
    }

    /**
     * One observer that tells all of {@code observers}, in order.
     *
     * @param observers the observers
     * @return the combined observer
     */
    static RetryObserver composite(java.util.List<? extends RetryObserver> observers) {
        if (observers.isEmpty()) {
            return NOOP;
        }
        if (observers.size() == 1) {
            return observers.get(0);
        }
        RetryObserver[] all = observers.toArray(new RetryObserver[0]);
        return new RetryObserver() {
            @Override
            public void onRetry(String operation, int nextAttempt, @Nullable Throwable error, long delayNanos) {
                for (RetryObserver observer : all) {
                    observer.onRetry(operation, nextAttempt, error, delayNanos);
                }
            }

            @Override
            public void onHedge(String operation, int attempt, long delayNanos) {
                for (RetryObserver observer : all) {
                    observer.onHedge(operation, attempt, delayNanos);
                }
            }

            @Override
            public void onHedgeWon(String operation, int attempt) {
                for (RetryObserver observer : all) {
                    observer.onHedgeWon(operation, attempt);
                }
            }

            @Override
            public void onComplete(String operation, RetryOutcome outcome, int attempts, long nanos) {
                for (RetryObserver observer : all) {
                    observer.onComplete(operation, outcome, attempts, nanos);
                }
            }
        };
    }
}
