package io.github.resiliencestarter.retry.internal;

import org.jspecify.annotations.Nullable;

/**
 * What follows an attempt: accept its outcome ({@link #ACCEPT}), stop for a reason (for an
 * unretryable failure with the rule that decided), or retry after {@code delay} nanoseconds.
 *
 * @param stop why the call stops, or {@code null} to accept or retry
 * @param delay the wait before the next attempt, in nanoseconds
 * @param why the deciding rule of an unretryable failure, or {@code null}
 */
public record RetryDecision(@Nullable RetryStop stop, long delay, @Nullable String why) {

    /** Accept the outcome. */
    public static final RetryDecision ACCEPT = new RetryDecision(null, -1, null);

    static RetryDecision stop(RetryStop stop) {
        return new RetryDecision(stop, 0, null);
    }

    static RetryDecision retryAfter(long delayNanos) {
        return new RetryDecision(null, delayNanos, null);
    }

    /**
     * The full reason of a stop.
     *
     * @return the stop's reason, with the deciding rule when there is one
     */
    public String reason() {
        RetryStop stopped = stop;
        String base = stopped != null ? stopped.reason() : "";
        return why == null ? base : base + ": " + why;
    }
}
