package io.github.resiliencestarter.retry.internal;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.retry.RetryClassifier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryGate;
import io.github.resiliencestarter.retry.RetryOutcome;
import io.github.resiliencestarter.retry.backoff.BackOff;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The one retry decision the blocking and the asynchronous drivers take after each attempt (or
 * hedged round): given what just happened, accept, stop, or retry after a delay. Pure: no
 * threads, no waits; the time source is read only to measure how long the attempt took.
 */
public final class RetryDecider {

    private final RetryConfig config;

    private final TimeSource time;

    /** The random source of back-off and jitter; {@code null} for the deciding thread's {@link ThreadLocalRandom}. */
    private final @Nullable RandomGenerator random;

    /**
     * Creates the decider of one retrier, drawing delays from the deciding thread's
     * {@link ThreadLocalRandom}.
     *
     * @param config the settings
     * @param time the time source that measures attempts
     */
    public RetryDecider(RetryConfig config, TimeSource time) {
        this(config, time, null);
    }

    /**
     * Creates the decider of one retrier.
     *
     * @param config the settings
     * @param time the time source that measures attempts
     * @param random the random source of back-off and jitter, or {@code null} for the deciding
     *     thread's {@link ThreadLocalRandom}
     */
    public RetryDecider(RetryConfig config, TimeSource time, @Nullable RandomGenerator random) {
        this.config = config;
        this.time = time;
        this.random = random;
    }

    /**
     * Decides after an attempt.
     *
     * @param attempt attempts made so far
     * @param failure the attempt's failure, or {@code null}
     * @param result the attempt's result
     * @param previousDelay the wait before this attempt, for decorrelated jitter
     * @param started when the attempt (or round) started, for its duration against the deadline
     * @param deadline the call's deadline, or {@code null}
     * @param retried the context the call's attempts are numbered in: its idempotent execution
     *     says whether one of them committed its writes
     * @param observing whether the call only observes: a retry that would follow stops it
     *     ({@link RetryStop#OBSERVED}), and the budget is not asked, as its token would be spent on
     *     nothing
     * @return what follows
     */
    public RetryDecision decide(int attempt, @Nullable Throwable failure, @Nullable Object result, long previousDelay,
            long started, @Nullable Deadline deadline, TraceContext retried, boolean observing) {
        if (isAcceptable(failure, result)) {
            return RetryDecision.ACCEPT;
        }
        if (failure != null && !isRetryable(failure)) {
            return new RetryDecision(RetryStop.NOT_RETRYABLE, 0, whyNotRetryable(failure));
        }
        IdempotentExecution execution = retried.idempotentExecution();
        if (execution != null && execution.committedIn(retried)) {
            // the writes of the execution are in: a retry would commit them a second time
            return RetryDecision.stop(RetryStop.COMMITTED);
        }
        if (attempt >= config.maxAttempts()) {
            return RetryDecision.stop(RetryStop.EXHAUSTED);
        }
        String refusal = failure != null ? RetryGate.refusalOn(failure) : null;
        if (refusal != null) {
            // a policy inside the loop (an open circuit) would refuse the next attempt: do not wait for it
            return new RetryDecision(RetryStop.GATE_CLOSED, 0, refusal);
        }
        long delay = delayBefore(attempt, failure, previousDelay);
        if (deadline != null && saturatedAdd(delay, Math.max(config.minAttemptTime().toNanos(),
                time.nanoTime() - started)) >= deadline.remainingNanos()) {
            return RetryDecision.stop(RetryStop.NO_TIME);
        }
        if (observing) {
            return RetryDecision.stop(RetryStop.OBSERVED);
        }
        if (!config.budget().tryAcquireRetry()) {
            return RetryDecision.stop(RetryStop.BUDGET_DENIED);
        }
        return RetryDecision.retryAfter(delay);
    }

    /**
     * Whether an outcome ends the call successfully.
     *
     * @param failure the failure, or {@code null}
     * @param result the result
     * @return {@code true} for a result the result predicate does not reject
     */
    public boolean isAcceptable(@Nullable Throwable failure, @Nullable Object result) {
        return failure == null && (config.retryOnResult() == null || !config.retryOnResult().test(result));
    }

    /**
     * Whether a failure may be retried by this operation.
     *
     * @param failure the failure
     * @return {@code true} when the classification says transient and the operation may repeat it
     */
    public boolean isRetryable(Throwable failure) {
        return config.classifier().isRetryable(failure)
                && (!config.onlyUnsentFailures() || RetryClassifier.isRequestNotSent(failure));
    }

    private String whyNotRetryable(Throwable failure) {
        if (config.classifier().isRetryable(failure)) {
            // transient, but this operation may only repeat what never reached the other side
            return failure.getClass().getSimpleName() + " may have reached the other side, and the operation is "
                    + "not declared idempotent (rule R-1)";
        }
        return config.classifier().explain(failure);
    }

    private long delayBefore(int failedAttempts, @Nullable Throwable failure, long previousDelay) {
        Duration requested = failure != null ? config.classifier().retryAfter(failure) : null;
        if (requested != null) {
            // the server said when; jittering it would either hammer early or wait needlessly. A
            // negative wait (a custom source) is now; a day, or the year 9999, is the cap
            Duration cap = config.maxRetryAfter();
            return requested.isNegative() ? 0 : requested.compareTo(cap) > 0 ? cap.toNanos() : requested.toNanos();
        }
        BackOff backOff = config.backOff();
        // looked up only when a delay is drawn: a call that succeeds at once needs no random source
        RandomGenerator rnd = random != null ? random : ThreadLocalRandom.current();
        return Math.max(0, config.jitter().apply(backOff.delayNanos(failedAttempts, rnd), previousDelay, backOff, rnd));
    }

    /**
     * The outcome a stopped call is counted as.
     *
     * @param attempts attempts made
     * @param stop why it stopped
     * @return the outcome
     */
    public static RetryOutcome outcome(int attempts, RetryStop stop) {
        if (stop == RetryStop.BUDGET_DENIED) {
            return RetryOutcome.BUDGET_DENIED;
        }
        if (stop == RetryStop.OBSERVED) {
            return RetryOutcome.WOULD_RETRY;
        }
        return attempts > 1 ? RetryOutcome.FAILED_WITH_RETRY : RetryOutcome.FAILED_WITHOUT_RETRY;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
