package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.Causes;
import org.jspecify.annotations.Nullable;

/**
 * Attached as a suppressed exception to the error a retried call finally throws, so the error
 * keeps its own type (and stays reachable for {@code @ExceptionHandler}s) while telling how many
 * attempts were made and why the loop stopped. Has no stack trace of its own.
 */
public final class RetrySummary extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int attempts;

    private final RetryOutcome outcome;

    private final int hedges;

    /**
     * Creates a summary of a call without hedges.
     *
     * @param operation the retried operation
     * @param attempts the attempts made
     * @param outcome how the loop ended
     * @param reason why it stopped
     */
    public RetrySummary(String operation, int attempts, RetryOutcome outcome, String reason) {
        this(operation, attempts, 0, outcome, reason);
    }

    /**
     * Creates a summary.
     *
     * @param operation the retried operation
     * @param attempts the attempts made, hedges included
     * @param hedges how many of them were hedges (parallel attempts)
     * @param outcome how the loop ended
     * @param reason why it stopped
     */
    public RetrySummary(String operation, int attempts, int hedges, RetryOutcome outcome, String reason) {
        super(operation + ": " + attempts + (attempts == 1 ? " attempt" : " attempts")
                + (hedges == 0 ? "" : hedges == 1 ? " (1 hedge)" : " (" + hedges + " hedges)") + ", " + reason,
                null, false, false);
        this.attempts = attempts;
        this.hedges = hedges;
        this.outcome = outcome;
    }

    /**
     * The summary attached to {@code error} by the outermost retry it went through, or
     * {@code null} when it did not come out of a retry.
     *
     * @param error the error
     * @return the summary
     */
    public static @Nullable RetrySummary of(@Nullable Throwable error) {
        if (error == null) {
            return null;
        }
        RetrySummary last = null;
        for (Throwable suppressed : error.getSuppressed()) {
            if (suppressed instanceof RetrySummary summary) {
                last = summary;
            }
        }
        return last;
    }

    /**
     * The summary of the first error in {@code error}'s cause chain that came out of a retry: for
     * failures a framework wrapped on their way out (a message listener's, say).
     *
     * @param error the error
     * @return the summary, or {@code null} when no error of the chain went through a retry
     */
    public static @Nullable RetrySummary inCauses(@Nullable Throwable error) {
        return Causes.firstAnswer(error, RetrySummary::of);
    }

    /**
     * The attempts made.
     *
     * @return the attempt count
     */
    public int attempts() {
        return attempts;
    }

    /**
     * How many of the attempts were hedges, started beside an attempt in flight. A failed call's
     * hedges all failed or were cancelled: a hedge that wins ends the call with its result.
     *
     * @return the hedge count
     */
    public int hedges() {
        return hedges;
    }

    /**
     * How the loop ended.
     *
     * @return the outcome
     */
    public RetryOutcome outcome() {
        return outcome;
    }
}
