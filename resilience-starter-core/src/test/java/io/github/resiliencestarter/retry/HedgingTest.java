package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.DurationEstimate;
import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.testsupport.DenyingBudget;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Hedged calls on real threads: the attempts run on the timeout runtime's executor; the tests wait
 * on latches with generous bounds, and a bounded wait only where something must <em>not</em>
 * happen.
 */
class HedgingTest {

    /** Long enough for a loaded 2-core machine; only reached when a test is about to fail. */
    private static final long GENEROUS_SECONDS = 30;

    /** How long a test waits for something that must not happen: many hedge delays. */
    private static final long NEVER_MILLIS = 400;

    private static final TimeoutRuntime RUNTIME = TimeoutRuntime.ofDefaults();

    @AfterAll
    static void closeRuntime() {
        RUNTIME.close();
    }

    private static RetryConfig.Builder hedged(HedgePolicy hedge) {
        return RetryConfig.custom().backOff(new FixedBackOff(Duration.ofMillis(1))).jitter(Jitters.none())
                .hedge(hedge);
    }

    private static Retrier retrier(RetryConfig config, RetryObserver observer) {
        return Retrier.builder("Test.read", config).timeoutRuntime(RUNTIME).observer(observer).build();
    }

    private static Retrier retrier(RetryConfig config) {
        return retrier(config, RetryObserver.NOOP);
    }

    private static boolean await(CountDownLatch latch) throws InterruptedException {
        return latch.await(GENEROUS_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Work whose first attempt is slow: it answers "first" after {@code slowMillis} unless
     * interrupted (a hedge that won); any later attempt answers "hedge" at once.
     */
    private static CheckedCallable<String> slowFirst(AtomicInteger attempts, long slowMillis) {
        return () -> {
            if (attempts.incrementAndGet() > 1) {
                return "hedge";
            }
            new CountDownLatch(1).await(slowMillis, TimeUnit.MILLISECONDS);
            return "first";
        };
    }

    /** Counts hedges started and won, and the attempts of completed calls. */
    private static final class Recorder implements RetryObserver {

        final AtomicInteger hedges = new AtomicInteger();

        final AtomicInteger won = new AtomicInteger();

        final List<RetryOutcome> outcomes = new CopyOnWriteArrayList<>();

        @Override
        public void onHedge(String operation, int attempt, long delayNanos) {
            hedges.incrementAndGet();
        }

        @Override
        public void onHedgeWon(String operation, int attempt) {
            won.incrementAndGet();
        }

        @Override
        public void onComplete(String operation, RetryOutcome outcome, int attempts) {
            outcomes.add(outcome);
        }
    }

    @Test
    void theFirstSuccessWinsAndTheSlowAttemptIsInterrupted() throws Throwable {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch slowInterrupted = new CountDownLatch(1);
        Recorder recorder = new Recorder();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(20))).build(), recorder);

        String result = retrier.call(() -> {
            if (TraceContextHolder.current().attempt() == 1) {
                try {
                    await(never);
                } catch (InterruptedException ex) {
                    slowInterrupted.countDown();
                    throw ex;
                }
                return "slow";
            }
            return "hedge";
        });

        assertThat(result).isEqualTo("hedge");
        assertThat(await(slowInterrupted)).as("the slow first attempt was interrupted").isTrue();
        assertThat(recorder.hedges).hasValue(1);
        assertThat(recorder.won).hasValue(1);
        assertThat(recorder.outcomes).containsExactly(RetryOutcome.SUCCESS_WITH_RETRY);
    }

    @Test
    void aFastFirstAttemptIsNotHedged() throws Throwable {
        Recorder recorder = new Recorder();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofSeconds(10))).build(), recorder);

        assertThat(retrier.call(() -> "fast")).isEqualTo("fast");
        assertThat(recorder.hedges).hasValue(0);
        assertThat(recorder.outcomes).containsExactly(RetryOutcome.SUCCESS_WITHOUT_RETRY);
    }

    @Test
    void atMostMaxHedgesRunBesideTheFirstAttempt() throws Throwable {
        CountDownLatch threeStarted = new CountDownLatch(3);
        CountDownLatch fourthStarted = new CountDownLatch(4);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(5)).maxHedges(2)).maxAttempts(10)
                .build());

        Thread caller = new Thread(() -> {
            try {
                retrier.call(() -> {
                    started.incrementAndGet();
                    threeStarted.countDown();
                    fourthStarted.countDown();
                    await(release);
                    return "done";
                });
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        });
        caller.start();

        assertThat(await(threeStarted)).isTrue();
        // dozens of hedge delays pass: a third hedge would have started by now
        assertThat(fourthStarted.await(NEVER_MILLIS, TimeUnit.MILLISECONDS)).isFalse();
        release.countDown();
        caller.join(TimeUnit.SECONDS.toMillis(GENEROUS_SECONDS));
        assertThat(started).hasValue(3);
    }

    @Test
    void R6_hedgesCountAgainstTheRetryBudget() throws Throwable {
        DenyingBudget spent = new DenyingBudget();
        AtomicInteger attempts = new AtomicInteger();
        Recorder recorder = new Recorder();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(5))).budget(spent).build(), recorder);

        // the first attempt stays slow for many hedge delays
        assertThat(retrier.call(slowFirst(attempts, NEVER_MILLIS))).isEqualTo("first");

        assertThat(attempts).hasValue(1);
        assertThat(spent.asked()).as("the budget was asked for the hedge").isGreaterThanOrEqualTo(1);
        assertThat(recorder.hedges).hasValue(0);
    }

    @Test
    void R5_eachHedgeCarriesItsOwnAttemptNumberAndTheCallersTraceAndDeadline() throws Throwable {
        CountDownLatch allStarted = new CountDownLatch(3);
        Set<Integer> numbers = ConcurrentHashMap.newKeySet();
        Set<String> traceIds = ConcurrentHashMap.newKeySet();
        Set<Deadline> deadlines = ConcurrentHashMap.newKeySet();
        Deadline deadline = Deadline.after(Duration.ofMinutes(1));
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(5)).maxHedges(2)).build());

        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("trace-hedge")
                .withDeadline(deadline))) {
            retrier.call(() -> {
                TraceContext context = TraceContextHolder.current();
                numbers.add(context.attempt());
                traceIds.add(String.valueOf(context.traceId()));
                deadlines.add(context.deadline());
                allStarted.countDown();
                await(allStarted);
                return "done";
            });
        }

        assertThat(numbers).containsExactlyInAnyOrder(1, 2, 3);
        assertThat(traceIds).containsExactly("trace-hedge");
        assertThat(deadlines).containsExactly(deadline);
    }

    @Test
    void C1_noHedgeStartsWhenWhatIsLeftOfTheDeadlineIsShorterThanAnAttempt() throws Throwable {
        AtomicInteger attempts = new AtomicInteger();
        // with 30 s left a hedge after 20 ms fits; with 30 ms left, after waiting 20 ms at most 10 ms remain
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(20))).build());

        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(30))))) {
            assertThat(retrier.call(slowFirst(attempts, NEVER_MILLIS))).isEqualTo("first");
        }
        assertThat(attempts).hasValue(1);

        attempts.set(0);
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofSeconds(GENEROUS_SECONDS))))) {
            assertThat(retrier.call(slowFirst(attempts, TimeUnit.SECONDS.toMillis(GENEROUS_SECONDS))))
                    .isEqualTo("hedge");
        }
    }

    @Test
    void whenEveryAttemptInFlightFailedTheNormalRetryDecisionFollowsAndTheNextRoundMayHedgeAgain()
            throws Throwable {
        CountDownLatch firstRoundStarted = new CountDownLatch(2);
        CountDownLatch secondRoundStarted = new CountDownLatch(2);
        Recorder recorder = new Recorder();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(5))).maxAttempts(4).build(), recorder);

        String result = retrier.call(() -> {
            int attempt = TraceContextHolder.current().attempt();
            if (attempt <= 2) {
                firstRoundStarted.countDown();
                await(firstRoundStarted);
                throw new RetryableException("BUSY", "attempt " + attempt);
            }
            secondRoundStarted.countDown();
            await(secondRoundStarted);
            return "attempt " + attempt;
        });

        assertThat(result).isIn("attempt 3", "attempt 4");
        assertThat(recorder.hedges).hasValue(2);
        assertThat(recorder.outcomes).containsExactly(RetryOutcome.SUCCESS_WITH_RETRY);
    }

    @Test
    void O1_aFailedHedgedCallSaysHowManyAttemptsWereHedgesAndKeepsEveryError() {
        CountDownLatch bothStarted = new CountDownLatch(2);
        Recorder recorder = new Recorder();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(5))).maxAttempts(2).build(), recorder);

        Throwable error = catchThrowable(() -> retrier.call(() -> {
            bothStarted.countDown();
            await(bothStarted);
            throw new RetryableException("BUSY", "attempt " + TraceContextHolder.current().attempt());
        }));

        RetrySummary summary = RetrySummary.of(error);
        assertThat(summary).isNotNull();
        assertThat(summary.attempts()).isEqualTo(2);
        assertThat(summary.hedges()).isEqualTo(1);
        assertThat(summary.getMessage()).contains("2 attempts (1 hedge), attempts exhausted");
        assertThat(error.getSuppressed()).hasAtLeastOneElementOfType(RetryableException.class);
        assertThat(recorder.hedges).hasValue(1);
        assertThat(recorder.won).hasValue(0);
    }

    @Test
    void aFailureThatIsNotRetryableEndsTheCallAtOnceAndCancelsTheOthers() throws InterruptedException {
        CountDownLatch hedgeStarted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch hedgeInterrupted = new CountDownLatch(1);
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(5))).build());

        assertThatThrownBy(() -> retrier.call(() -> {
            if (TraceContextHolder.current().attempt() == 1) {
                await(hedgeStarted);
                throw new NonRetryableException("NOT_FOUND", "no such order");
            }
            hedgeStarted.countDown();
            try {
                await(never);
            } catch (InterruptedException ex) {
                hedgeInterrupted.countDown();
                throw ex;
            }
            return "never";
        })).isInstanceOf(NonRetryableException.class);
        assertThat(await(hedgeInterrupted)).as("the hedge in flight was interrupted").isTrue();
    }

    @Test
    void theObservedPercentileReplacesTheInitialDelayOnceThereAreEnoughSamples() throws Throwable {
        HedgePolicy policy = HedgePolicy.atPercentile(90).minSamples(20).initialDelay(Duration.ofSeconds(60))
                .minDelay(Duration.ofMillis(5));
        AtomicInteger attempts = new AtomicInteger();
        Retrier retrier = retrier(hedged(policy).build());

        // no history: the initial delay (a minute) applies, no hedge
        assertThat(retrier.call(slowFirst(attempts, NEVER_MILLIS))).isEqualTo("first");
        for (int i = 0; i < 20; i++) {
            retrier.call(() -> "fast");
        }
        // 21 samples, all well below the 5 ms floor: the delay is now the floor
        attempts.set(0);
        assertThat(retrier.call(slowFirst(attempts, TimeUnit.SECONDS.toMillis(GENEROUS_SECONDS))))
                .isEqualTo("hedge");
    }

    @Test
    void thePercentileDelayHasAFloorAndFallsBackUntilEnoughSamples() {
        HedgePolicy policy = HedgePolicy.atPercentile(95).minSamples(10).minDelay(Duration.ofMillis(2))
                .initialDelay(Duration.ofMillis(100));
        DurationEstimate estimate = policy.newEstimate();
        assertThat(estimate).isNotNull();
        for (int i = 0; i < 9; i++) {
            estimate.record(Duration.ofMillis(50).toNanos());
        }
        assertThat(policy.delayNanos(estimate)).isEqualTo(Duration.ofMillis(100).toNanos());
        estimate.record(Duration.ofMillis(50).toNanos());
        assertThat(policy.delayNanos(estimate)).isEqualTo(Duration.ofMillis(50).toNanos());

        DurationEstimate fast = policy.newEstimate();
        for (int i = 0; i < 10; i++) {
            fast.record(Duration.ofMillis(1).toNanos() / 10);
        }
        assertThat(policy.delayNanos(fast)).isEqualTo(Duration.ofMillis(2).toNanos());
        assertThat(HedgePolicy.after(Duration.ofMillis(7)).delayNanos(null)).isEqualTo(Duration.ofMillis(7).toNanos());
    }

    @Test
    void R1_hedgingIsRefusedForAPolicyThatMayOnlyRepeatUnsentRequestsAndNeedsTwoAttempts() {
        assertThatThrownBy(() -> hedged(HedgePolicy.after(Duration.ofMillis(5))).onlyUnsentFailures(true).build())
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("never sent");
        assertThatThrownBy(() -> hedged(HedgePolicy.after(Duration.ofMillis(5))).maxAttempts(1).build())
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("at least 2");
        assertThatThrownBy(() -> Retrier.of("Test.read", hedged(HedgePolicy.atPercentile(95)).build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("needs a TimeoutRuntime");
    }

    @Test
    void asyncTheFirstCompletionWinsAndTheSlowAttemptsFutureIsCancelled() throws Exception {
        CompletableFuture<String> slow = new CompletableFuture<>();
        Set<Integer> numbers = ConcurrentHashMap.newKeySet();
        Recorder recorder = new Recorder();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(20))).build(), recorder);

        CompletableFuture<String> result = retrier.callAsync(() -> {
            int attempt = TraceContextHolder.current().attempt();
            numbers.add(attempt);
            return attempt == 1 ? slow : CompletableFuture.completedFuture("hedge");
        });

        assertThat(result.get(GENEROUS_SECONDS, TimeUnit.SECONDS)).isEqualTo("hedge");
        assertThat(slow).isCancelled();
        assertThat(numbers).containsExactlyInAnyOrder(1, 2);
        assertThat(recorder.hedges).hasValue(1);
        assertThat(recorder.won).hasValue(1);
    }

    @Test
    void R6_anAsyncCallWithADeniedBudgetStartsNoHedge() throws Exception {
        DenyingBudget spent = new DenyingBudget();
        AtomicInteger attempts = new AtomicInteger();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(5))).budget(spent).build());

        CompletableFuture<String> result = retrier.callAsync(() -> {
            attempts.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> "first",
                    CompletableFuture.delayedExecutor(NEVER_MILLIS, TimeUnit.MILLISECONDS));
        });

        assertThat(result.get(GENEROUS_SECONDS, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(attempts).hasValue(1);
    }

    @Test
    void asyncWhenEveryAttemptFailedTheNextRoundHedgesAgain() throws Exception {
        Recorder recorder = new Recorder();
        Retrier retrier = retrier(hedged(HedgePolicy.after(Duration.ofMillis(5))).maxAttempts(4).build(), recorder);
        CompletableFuture<String> firstRoundFails = new CompletableFuture<>();

        CompletableFuture<String> result = retrier.callAsync(() -> {
            int attempt = TraceContextHolder.current().attempt();
            if (attempt == 1) {
                return firstRoundFails;
            }
            if (attempt == 2) {
                // the hedge fails, then the first attempt: the round has failed as a whole
                firstRoundFails.completeExceptionally(new RetryableException("BUSY", "attempt 1"));
                return CompletableFuture.failedFuture(new RetryableException("BUSY", "attempt 2"));
            }
            return attempt == 3 ? new CompletableFuture<>() : CompletableFuture.completedFuture("attempt 4");
        });

        assertThat(result.get(GENEROUS_SECONDS, TimeUnit.SECONDS)).isEqualTo("attempt 4");
        assertThat(recorder.hedges).hasValue(2);
        assertThat(recorder.won).hasValue(1);
    }
}
