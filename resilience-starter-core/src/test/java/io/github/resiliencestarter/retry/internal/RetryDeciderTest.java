package io.github.resiliencestarter.retry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.retry.RetryBudget;
import io.github.resiliencestarter.retry.RetryClassifier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryOutcome;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.testsupport.DenyingBudget;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The retry decision itself, pure, on a clock the test moves: what stops a call and in which order
 * (rules, C-1), the delay it waits, and the exact edge of the deadline.
 */
class RetryDeciderTest {

    private static final RandomGenerator LOWEST = new RandomGenerator() {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public long nextLong(long origin, long bound) {
            return origin;
        }
    };

    private static final long MS = 1_000_000L;

    private final ManualTime time = new ManualTime(10_000_000L);

    private final ConnectException transientFailure = new ConnectException("connection refused");

    private static RetryConfig.Builder config() {
        return RetryConfig.custom().maxAttempts(3).backOff(new FixedBackOff(Duration.ofMillis(100)))
                .jitter(Jitters.none()).minAttemptTime(Duration.ZERO).budget(RetryBudget.UNLIMITED);
    }

    private RetryDecision decide(RetryConfig config, int attempt, @Nullable Throwable failure, @Nullable Object result,
            long attemptNanos, @Nullable Deadline deadline) {
        return decide(config, attempt, failure, result, attemptNanos, deadline, false);
    }

    private RetryDecision decide(RetryConfig config, int attempt, @Nullable Throwable failure, @Nullable Object result,
            long attemptNanos, @Nullable Deadline deadline, boolean observing) {
        return new RetryDecider(config, time, LOWEST).decide(attempt, failure, result, 0,
                time.nanoTime() - attemptNanos, deadline, TraceContext.empty(), observing);
    }

    @Test
    void O1_observingStopsWhereARetryWouldFollowWithoutAskingTheBudgetAndCountsItAsWouldRetry() {
        DenyingBudget budget = new DenyingBudget();
        RetryConfig config = config().budget(budget).build();

        RetryDecision observed = decide(config, 1, transientFailure, null, 0, null, true);

        assertThat(observed.stop()).isEqualTo(RetryStop.OBSERVED);
        assertThat(budget.asked()).isZero();
        assertThat(RetryDecider.outcome(1, RetryStop.OBSERVED)).isEqualTo(RetryOutcome.WOULD_RETRY);
        // every other decision is the enforced one
        assertThat(decide(config, 1, null, "done", 0, null, true)).isSameAs(RetryDecision.ACCEPT);
        assertThat(decide(config, 1, new IllegalStateException("bug"), null, 0, null, true).stop())
                .isEqualTo(RetryStop.NOT_RETRYABLE);
        assertThat(decide(config, 3, transientFailure, null, 0, null, true).stop()).isEqualTo(RetryStop.EXHAUSTED);
        assertThat(decide(config, 1, transientFailure, null, 0, null, false).stop())
                .isEqualTo(RetryStop.BUDGET_DENIED);
        assertThat(budget.asked()).isEqualTo(1);
    }

    @Test
    void R3_aTransientFailureIsRetriedAfterItsBackOffUntilTheAttemptsAreSpent() {
        RetryConfig config = config().build();

        assertThat(decide(config, 1, transientFailure, null, 0, null)).isEqualTo(new RetryDecision(null, 100 * MS,
                null));
        assertThat(decide(config, 2, transientFailure, null, 0, null).delay()).isEqualTo(100 * MS);
        assertThat(decide(config, 3, transientFailure, null, 0, null).stop()).isEqualTo(RetryStop.EXHAUSTED);
        assertThat(decide(config, 1, null, "done", 0, null)).isSameAs(RetryDecision.ACCEPT);
    }

    @Test
    void R2_aFailureThatIsNotTransientStopsAtOnceSayingWhy() {
        RetryDecision decision = decide(config().build(), 1, new IllegalArgumentException("bad id"), null, 0, null);

        assertThat(decision.stop()).isEqualTo(RetryStop.NOT_RETRYABLE);
        assertThat(decision.reason()).startsWith(RetryStop.NOT_RETRYABLE.reason() + ": ");
    }

    @Test
    void R1_anOperationThatMayOnlyRepeatUnsentRequestsRetriesAConnectTimeoutButNotAReadTimeout() {
        RetryConfig config = config().onlyUnsentFailures(true).build();

        assertThat(decide(config, 1, new SocketTimeoutException("Connect timed out"), null, 0, null).stop()).isNull();
        assertThat(decide(config, 1, transientFailure, null, 0, null).stop()).isNull();
        RetryDecision read = decide(config, 1, new SocketTimeoutException("Read timed out"), null, 0, null);
        assertThat(read.stop()).isEqualTo(RetryStop.NOT_RETRYABLE);
        assertThat(read.reason()).contains("SocketTimeoutException may have reached the other side", "rule R-1");
    }

    @Test
    void R2_aRejectedResultIsRetriedAndAnAcceptedOneEndsTheCall() {
        RetryConfig config = config().retryOnResult("again"::equals).build();

        assertThat(decide(config, 1, null, "again", 0, null).delay()).isEqualTo(100 * MS);
        assertThat(decide(config, 1, null, "ok", 0, null)).isSameAs(RetryDecision.ACCEPT);
        assertThat(decide(config, 3, null, "again", 0, null).stop()).isEqualTo(RetryStop.EXHAUSTED);
    }

    @Test
    void C1_aRetryThatWouldReachTheDeadlineExactlyIsNotStarted() {
        RetryConfig config = config().build();

        // 100 ms of back-off + 50 ms like the attempt just made = 150 ms: not before a deadline 150 ms away
        assertThat(decide(config, 1, transientFailure, null, 50 * MS, Deadline.after(Duration.ofMillis(150), time))
                .stop()).isEqualTo(RetryStop.NO_TIME);
        assertThat(decide(config, 1, transientFailure, null, 50 * MS,
                Deadline.afterNanos(150 * MS + 1, time)).delay()).isEqualTo(100 * MS);
    }

    @Test
    void C1_theMinimumAttemptTimeStandsInForAQuickerAttempt() {
        RetryConfig config = config().minAttemptTime(Duration.ofMillis(60)).build();

        // 100 ms + max(60 ms, the 10 ms the attempt took) = 160 ms
        assertThat(decide(config, 1, transientFailure, null, 10 * MS, Deadline.after(Duration.ofMillis(160), time))
                .stop()).isEqualTo(RetryStop.NO_TIME);
        assertThat(decide(config, 1, transientFailure, null, 10 * MS, Deadline.afterNanos(160 * MS + 1, time))
                .stop()).isNull();
    }

    @Test
    void C1_anImmediateRetryWithAnyTimeLeftGoesAhead() {
        RetryConfig config = config().backOff(new FixedBackOff(Duration.ZERO)).build();

        assertThat(decide(config, 1, transientFailure, null, 0, Deadline.afterNanos(1, time)))
                .isEqualTo(new RetryDecision(null, 0, null));
    }

    @Test
    void R4_aNegativeJitterWaitsNothingRatherThanAnImpossibleDelay() {
        RetryConfig config = config().jitter((base, previous, backOff, random) -> -5).build();

        assertThat(decide(config, 1, transientFailure, null, 0, null).delay()).isZero();
    }

    @Test
    void R4_aRequestedWaitIsWaitedAsIsUpToItsCap() {
        AtomicInteger seconds = new AtomicInteger();
        RetryClassifier classifier = RetryClassifier.builder()
                .retryAfterSource(error -> Duration.ofSeconds(seconds.get())).build();
        RetryConfig config = config().classifier(classifier).maxRetryAfter(Duration.ofSeconds(5)).build();

        seconds.set(2);
        assertThat(decide(config, 1, transientFailure, null, 0, null).delay()).isEqualTo(2_000 * MS);
        seconds.set(10);
        assertThat(decide(config, 1, transientFailure, null, 0, null).delay()).isEqualTo(5_000 * MS);
        seconds.set(-3);
        assertThat(decide(config, 1, transientFailure, null, 0, null).delay()).isZero();
    }

    @Test
    void R6_theBudgetIsAskedLastSoThatNoStoppedCallSpendsARetry() {
        DenyingBudget denying = new DenyingBudget();
        RetryConfig config = config().budget(denying).build();

        assertThat(decide(config, 3, transientFailure, null, 0, null).stop()).isEqualTo(RetryStop.EXHAUSTED);
        assertThat(decide(config, 1, new IllegalStateException("no"), null, 0, null).stop())
                .isEqualTo(RetryStop.NOT_RETRYABLE);
        assertThat(decide(config, 1, transientFailure, null, 0, Deadline.after(Duration.ofMillis(50), time)).stop())
                .isEqualTo(RetryStop.NO_TIME);
        assertThat(denying.asked()).isZero();

        assertThat(decide(config, 1, transientFailure, null, 0, null).stop()).isEqualTo(RetryStop.BUDGET_DENIED);
        assertThat(denying.asked()).isEqualTo(1);
    }

    @Test
    void R6_aCallStoppedByTheBudgetCountsAsDeniedAndOtherStopsByTheirAttempts() {
        assertThat(RetryDecider.outcome(2, RetryStop.BUDGET_DENIED)).isEqualTo(RetryOutcome.BUDGET_DENIED);
        assertThat(RetryDecider.outcome(2, RetryStop.EXHAUSTED)).isEqualTo(RetryOutcome.FAILED_WITH_RETRY);
        assertThat(RetryDecider.outcome(1, RetryStop.NOT_RETRYABLE)).isEqualTo(RetryOutcome.FAILED_WITHOUT_RETRY);
    }
}
