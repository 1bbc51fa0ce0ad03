package io.github.resiliencestarter.retry.internal;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.retry.HedgePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The decisions of one hedged round, shared by its blocking and its asynchronous adapter
 * ({@link BlockingHedgedRound}, {@link AsyncHedgedRound}): a round starts one attempt and, each
 * time it has waited the hedge delay, may add a parallel one; it ends with the first acceptable
 * outcome, with a failure that is not retryable, or when every attempt it started has failed.
 * Hedging is a strategy of its own inside a retry: the retry decides after the round as after a
 * single attempt. Not thread-safe: each adapter guards its round.
 */
final class HedgeRound {

    private final RetryEngine engine;

    private final HedgePolicy policy;

    /** The number of the round's first attempt. */
    final int first;

    /** When the round started. */
    final long started;

    /** Hedges this round started. */
    int hedges;

    /** Failures of attempts that ended while others still ran; they join the call's earlier errors. */
    final List<Throwable> otherFailures = new ArrayList<>(1);

    HedgeRound(RetryEngine engine, int first, long started) {
        this.engine = engine;
        this.policy = Objects.requireNonNull(engine.config.hedge(),
                "a hedged round on a config without a hedge policy");
        this.first = first;
        this.started = started;
    }

    /** The wait before each hedge. */
    long delayNanos() {
        return policy.delayNanos(engine.latency);
    }

    /**
     * Whether an attempt that just ended ends the round: accepted, not retryable, or the last one
     * in flight. Otherwise its failure is kept and the round waits for the others.
     */
    boolean endsWith(@Nullable Throwable failure, @Nullable Object result, boolean othersInFlight) {
        RetryDecider decider = engine.decider;
        if (decider.isAcceptable(failure, result) || (failure != null && !decider.isRetryable(failure))
                || !othersInFlight) {
            return true;
        }
        if (failure != null) {
            otherFailures.add(failure);
        }
        return false;
    }

    /** Whether the round may still add hedges at all: their count and the call's attempts allow it. */
    boolean hasHedgesLeft(int attemptsSoFar) {
        return hedges < policy.maxHedges() && attemptsSoFar < engine.config.maxAttempts();
    }

    /**
     * Whether a hedge may start now: hedges left, the deadline far enough for an attempt of the
     * expected length (the hedge delay, or the minimum attempt time), and the budget's consent
     * (a hedge is an extra call to the downstream like a retry; a sick one must not see it doubled).
     * Takes a budget token when it answers {@code true}.
     */
    boolean mayHedge(int attemptsSoFar, @Nullable Deadline deadline, long delay) {
        return hasHedgesLeft(attemptsSoFar)
                && (deadline == null
                        || deadline.remainingNanos() >= Math.max(engine.config.minAttemptTime().toNanos(), delay))
                && engine.config.budget().tryAcquireRetry();
    }

    /**
     * Feeds the percentile when an attempt was accepted: the first attempt's duration when it won,
     * or how long it had run when a hedge won. The latter is a lower bound, and enough: it lies
     * above the hedge delay, so it keeps the slow calls in the tail that the hedges hide from view.
     *
     * @param primaryWon whether the accepted attempt is the round's first
     * @param primaryStarted when the first attempt started
     * @param primaryStillRunning whether the first attempt was still in flight when a hedge won
     * @param endedNanos when the accepted attempt ended
     */
    void recordLatency(boolean primaryWon, long primaryStarted, boolean primaryStillRunning, long endedNanos) {
        if (engine.latency == null) {
            return;
        }
        if (primaryWon) {
            engine.latency.record(endedNanos - primaryStarted);
        } else if (primaryStillRunning) {
            engine.latency.record(engine.time.nanoTime() - primaryStarted);
        }
    }
}
