package io.github.resiliencestarter.retry;

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
    default void onRetry(String operation, int nextAttempt, Throwable error, long delayNanos) {
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
}
