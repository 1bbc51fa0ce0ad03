package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.rollout.EnforcementMode;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import io.github.resiliencestarter.testsupport.DenyingBudget;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code @Retry} in observe mode (docs/rollout.md): one attempt, the retry that was due counted
 * as {@code would_retry}, no budget token spent, no hedge; a rollout retries the share of trace
 * ids it covers.
 */
class ObservedRetryTest {

    private final FakeTime time = new FakeTime();

    private final List<RetryOutcome> outcomes = new CopyOnWriteArrayList<>();

    private final RetryObserver observer = new RetryObserver() {
        @Override
        public void onComplete(String operation, RetryOutcome outcome, int attempts, long nanos) {
            outcomes.add(outcome);
        }
    };

    private static RetryConfig.Builder config(RolloutPolicy rollout) {
        return RetryConfig.custom().maxAttempts(3).backOff(new FixedBackOff(Duration.ofMillis(10)))
                .jitter(Jitters.none()).rollout(rollout);
    }

    private Retrier retrier(RetryConfig config) {
        return Retrier.builder("Test.op", config).timeSource(time).sleeper(time).observer(observer).build();
    }

    private static final RolloutPolicy OBSERVE = new RolloutPolicy(EnforcementMode.OBSERVE, 100);

    @Test
    void O1_anObservedFailureIsTriedOnceAndTheRetryItWasDueIsCountedWithoutSpendingTheBudget() {
        DenyingBudget budget = new DenyingBudget();
        AtomicInteger attempts = new AtomicInteger();
        ConnectException failure = new ConnectException("refused");

        assertThatThrownBy(() -> retrier(config(OBSERVE).budget(budget).build()).call(() -> {
            attempts.incrementAndGet();
            throw failure;
        })).isSameAs(failure);

        assertThat(attempts).hasValue(1);
        assertThat(budget.asked()).as("no token spent on a retry not made").isZero();
        assertThat(outcomes).containsExactly(RetryOutcome.WOULD_RETRY);
    }

    @Test
    void O1_anObservedFailureThatWouldNotBeRetriedIsCountedAsSuch() {
        assertThatThrownBy(() -> retrier(config(OBSERVE).build()).call(() -> {
            throw new IllegalArgumentException("a bug, not a transient fault");
        })).isInstanceOf(IllegalArgumentException.class);

        assertThat(outcomes).containsExactly(RetryOutcome.FAILED_WITHOUT_RETRY);
    }

    @Test
    void O1_anObservedAsynchronousCallMakesOneAttemptAndCountsTheDueRetry() {
        AtomicInteger attempts = new AtomicInteger();

        CompletableFuture<String> result = retrier(config(OBSERVE).build()).callAsync(() -> {
            attempts.incrementAndGet();
            return CompletableFuture.failedFuture(new ConnectException("refused"));
        });

        assertThatThrownBy(() -> result.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ConnectException.class);
        assertThat(attempts).hasValue(1);
        assertThat(outcomes).containsExactly(RetryOutcome.WOULD_RETRY);
    }

    @Test
    void O1_anObservedHedgedCallStartsNoHedge() throws Throwable {
        AtomicInteger attempts = new AtomicInteger();
        CountDownLatch secondStarted = new CountDownLatch(1);
        try (TimeoutRuntime runtime = TimeoutRuntime.ofDefaults()) {
            Retrier hedged = Retrier.builder("Test.op", config(OBSERVE)
                    .hedge(HedgePolicy.after(Duration.ofMillis(20))).build()).observer(observer)
                    .timeoutRuntime(runtime).build();

            String result = hedged.call(() -> {
                if (attempts.incrementAndGet() > 1) {
                    secondStarted.countDown();
                    return "hedge";
                }
                // long past the hedge delay: an enforced call would have started its hedge by now
                return secondStarted.await(500, TimeUnit.MILLISECONDS) ? "first, after a hedge" : "first";
            });

            assertThat(result).isEqualTo("first");
        }
        assertThat(attempts).hasValue(1);
    }

    @Test
    void O1_aRolloutOfTwentyPercentRetriesAboutAFifthOfTraceIdsAndTheSameOnesOnAnotherInstance() {
        RetryConfig twentyPercent = config(new RolloutPolicy(EnforcementMode.ENFORCE, 20)).build();
        Retrier first = retrier(twentyPercent);
        Retrier second = retrier(twentyPercent);
        int retried = 0;
        for (int i = 0; i < 1_000; i++) {
            String traceId = "trace-" + i + "-" + Integer.toHexString(i * 104_729);
            boolean onFirst = retriedFor(first, traceId);
            assertThat(retriedFor(second, traceId)).as("one decision per trace id on every instance")
                    .isEqualTo(onFirst);
            retried += onFirst ? 1 : 0;
        }
        assertThat(retried).isBetween(150, 250);
    }

    /** Whether the call made a second attempt after a transient failure. */
    private static boolean retriedFor(Retrier retrier, String traceId) {
        AtomicInteger attempts = new AtomicInteger();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId(traceId))) {
            retrier.call(() -> {
                if (attempts.incrementAndGet() == 1) {
                    throw new ConnectException("refused");
                }
                return "ok";
            });
        } catch (Throwable expectedWhenObserved) {
            // an observed call ends on its first failure
        }
        return attempts.get() > 1;
    }
}
