package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.ResilienceException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.retry.backoff.ExponentialBackOff;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.retry.support.RatioRetryBudget;
import io.github.resiliencestarter.timeout.ConnectTimeoutException;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.ReadTimeoutException;
import io.github.resiliencestarter.timeout.TimeoutRejectedException;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.io.IOException;
import java.net.ConnectException;
import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RetrierTest {

    private final FakeTime time = new FakeTime();

    private Retrier retrier(RetryConfig policy) {
        return Retrier.builder("Test.op", policy).timeSource(time).sleeper(time).build();
    }

    private static RetryConfig.Builder fixed(long millis) {
        return RetryConfig.custom().backOff(new FixedBackOff(Duration.ofMillis(millis))).jitter(Jitters.none());
    }

    private static int attemptsUntilFailure(Retrier retrier, Throwable error) {
        AtomicInteger attempts = new AtomicInteger();
        try {
            retrier.call(() -> {
                attempts.incrementAndGet();
                throw error;
            });
        } catch (Throwable ignored) {
            // only the count matters here
        }
        return attempts.get();
    }

    @Test
    void R2_permanentFailuresAreNotRetriedAndTransientOnesAre() {
        Retrier retrier = retrier(fixed(10).build());
        assertThat(attemptsUntilFailure(retrier, new IllegalArgumentException("bad input"))).isEqualTo(1);
        assertThat(attemptsUntilFailure(retrier, new NonRetryableException("VALIDATION", "bad"))).isEqualTo(1);
        assertThat(attemptsUntilFailure(retrier, new IOException("unknown"))).isEqualTo(1);
        assertThat(attemptsUntilFailure(retrier, new RetryableException("BUSY", "busy"))).isEqualTo(3);
        assertThat(attemptsUntilFailure(retrier, new ConnectException("Connection refused"))).isEqualTo(3);
        assertThat(attemptsUntilFailure(retrier, new SQLTransactionRollbackException("Deadlock found", "40001")))
                .isEqualTo(3);
        assertThat(attemptsUntilFailure(retrier, new ReadTimeoutException("read", null))).isEqualTo(3);
        assertThat(attemptsUntilFailure(retrier, new RuntimeException("wrapped", new ConnectException("refused"))))
                .isEqualTo(3);
    }

    /** A business rule refusing the operation, as a service would declare it. */
    static final class InsufficientBalance extends NonRetryableException {

        private static final long serialVersionUID = 1L;

        InsufficientBalance() {
            super("INSUFFICIENT_BALANCE", "balance too low");
        }
    }

    @Test
    void RP5_aBadArgumentIsNotRetriedByDefaultEvenWhenItCarriesATransientLookingCause() {
        // what an operation declared idempotent gets without any retryFor or noRetryFor: unknown I/O failures retry
        RetryConfig defaults = fixed(1).classifier(RetryClassifier.builder().ioFailuresTransient(true).build()).build();
        // a bad argument the way ObjectMapper.convertValue reports one: around the parser's IOException
        IllegalArgumentException badArgument = new IllegalArgumentException("amount: not a number",
                new IOException("Unexpected character 'x'"));
        assertThat(attemptsUntilFailure(retrier(defaults), badArgument)).isEqualTo(1);
        // the same I/O failure alone is retried: the verdict above is the client-error rule's
        assertThat(attemptsUntilFailure(retrier(defaults), new IOException("connection closed"))).isEqualTo(3);
    }

    @Test
    void RP5_aBusinessErrorIsNotRetriedEvenWhenRetryForNamesItsSupertype() {
        RetryConfig eager = fixed(1).classifier(RetryClassifier.builder()
                .retryFor(List.of(RuntimeException.class)).build()).build();
        assertThat(attemptsUntilFailure(retrier(eager), new InsufficientBalance())).isEqualTo(1);
        assertThat(attemptsUntilFailure(retrier(eager), new IllegalStateException("other"))).isEqualTo(3);
    }

    @Test
    void R3_neverMoreThanMaxAttempts() {
        for (int max = 1; max <= 6; max++) {
            assertThat(attemptsUntilFailure(retrier(fixed(1).maxAttempts(max).build()),
                    new RetryableException("X", "x"))).isEqualTo(max);
        }
    }

    @Test
    void R3_theLoopStopsBeforeTheDeadlineSoASecondSleepNeverStarts() {
        Retrier retrier = retrier(fixed(400).maxAttempts(5).build());
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(500), time)))) {
            assertThat(attemptsUntilFailure(retrier, new RetryableException("X", "x"))).isEqualTo(2);
        }
        assertThat(time.sleeps).containsExactly(Duration.ofMillis(400).toNanos());
    }

    @Test
    void RP6_attemptsOwnTimeCountsSoRetriesNeverOutliveTheBudget() {
        Retrier retrier = retrier(fixed(0).maxAttempts(10).build());
        long start = time.nanoTime();
        AtomicInteger attempts = new AtomicInteger();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(300), time)))) {
            assertThatThrownBy(() -> retrier.call(() -> {
                attempts.incrementAndGet();
                time.advanceMillis(120);
                throw new ReadTimeoutException("slow downstream", null);
            })).isInstanceOf(ReadTimeoutException.class);
        }
        // 0-120, 120-240; a third 120 ms attempt would end at 360 > 300, so it is not started
        assertThat(attempts.get()).isEqualTo(2);
        assertThat(Duration.ofNanos(time.nanoTime() - start)).isLessThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void TP5_retriesMultiplyTheTimeSoTheLoopStopsWhereTheBudgetEndsNotWhereTheAttemptsRunOut() {
        // ten attempts of 100 ms with 50 ms between them would take 1.45 s; the budget is 500 ms
        Retrier retrier = retrier(fixed(50).maxAttempts(10).build());
        long start = time.nanoTime();
        AtomicInteger attempts = new AtomicInteger();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(500), time)))) {
            assertThatThrownBy(() -> retrier.call(() -> {
                attempts.incrementAndGet();
                time.advanceMillis(100);
                throw new RetryableException("DOWN", "503");
            })).isInstanceOf(RetryableException.class);
        }
        // 0-100, wait, 150-250, wait, 300-400; a fourth would end at 550
        assertThat(attempts.get()).isEqualTo(3);
        assertThat(Duration.ofNanos(time.nanoTime() - start)).isLessThanOrEqualTo(Duration.ofMillis(500));
    }

    @Test
    void C1_aRealRetryLoopFitsInsideTheBudget() {
        Retrier real = Retrier.of("Test.real", RetryConfig.custom().maxAttempts(50)
                .backOff(new ExponentialBackOff(Duration.ofMillis(20), 2.0, Duration.ofMillis(200))).build());
        long start = System.nanoTime();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(600))))) {
            assertThatThrownBy(() -> real.call(() -> {
                Thread.sleep(30);
                throw new RetryableException("X", "x");
            })).isInstanceOf(RetryableException.class)
                    .satisfies(error -> assertThat(RetrySummary.of(error).attempts()).isLessThan(50));
        }
        // the deadline, not the 50 attempts (several seconds of back-off), ended the loop; the slack only
        // absorbs a loaded machine's late wake-ups
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(600 + 2_000));
    }

    @Test
    void aSpentBudgetFailsBeforeTheFirstAttempt() {
        AtomicInteger attempts = new AtomicInteger();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ZERO, time)))) {
            assertThatThrownBy(() -> retrier(fixed(1).build()).call(attempts::incrementAndGet))
                    .isInstanceOf(DeadlineExceededException.class);
        }
        assertThat(attempts.get()).isZero();
    }

    @Test
    void R6_andRP2_aDownstreamFailingEverythingSeesAboutOnePointOneTimesItsLoadNotThreeTimes() {
        RatioRetryBudget budget = new RatioRetryBudget(10, 3, Duration.ofSeconds(10), time);
        Map<RetryOutcome, Integer> outcomes = new EnumMap<>(RetryOutcome.class);
        RetryObserver counting = new RetryObserver() {
            @Override
            public void onComplete(String operation, RetryOutcome outcome, int attempts) {
                outcomes.merge(outcome, 1, Integer::sum);
            }
        };
        Retrier retrier = Retrier.builder("Test.storm", fixed(1).maxAttempts(3).budget(budget).build())
                .timeSource(time).sleeper(time).observer(counting).build();
        AtomicInteger downstreamCalls = new AtomicInteger();
        for (int i = 0; i < 1000; i++) {
            try {
                retrier.call(() -> {
                    downstreamCalls.incrementAndGet();
                    throw new RetryableException("DOWN", "503");
                });
            } catch (Throwable expected) {
                // every call fails
            }
        }
        // 1000 calls + 10 % of them + a floor of 3/s over the 10 s window = 1130 at most
        assertThat(downstreamCalls.get()).isBetween(1000, 1130);
        assertThat(outcomes.get(RetryOutcome.BUDGET_DENIED)).isGreaterThan(900);
    }

    @Test
    void RP3_thereIsAlwaysAnIntervalBetweenAttempts() {
        RetryConfig defaults = RetryConfig.ofDefaults();
        long sum = 0;
        int draws = 2_000;
        for (int i = 0; i < draws; i++) {
            FakeTime clock = new FakeTime();
            List<Long> attemptStarts = new ArrayList<>();
            Retrier retrier = Retrier.builder("Test.gap", defaults).timeSource(clock).sleeper(clock)
                    .random(new SplittableRandom(i)).build();
            assertThatThrownBy(() -> retrier.call(() -> {
                attemptStarts.add(clock.nanoTime());
                throw new RetryableException("X", "x");
            })).isInstanceOf(RetryableException.class);
            // attempts take no time here: any time between their starts is the interval the loop waited
            assertThat(attemptStarts).hasSize(3);
            assertThat(attemptStarts.get(1) - attemptStarts.get(0)).isPositive();
            assertThat(attemptStarts.get(2) - attemptStarts.get(1)).isPositive();
            sum += attemptStarts.get(1) - attemptStarts.get(0);
        }
        // full jitter over the default 100 ms first delay averages 50 ms
        assertThat(Duration.ofNanos(sum / draws)).isBetween(Duration.ofMillis(40), Duration.ofMillis(60));
    }

    @Test
    void RS1_theFinalFailureKeepsItsTypeCarriesEarlierErrorsAndIsLoggedOnceWithTheTraceId() {
        Logger logger = (Logger) LoggerFactory.getLogger(Retrier.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("rs1-trace"))) {
            AtomicInteger n = new AtomicInteger();
            assertThatThrownBy(() -> retrier(fixed(1).build()).call(() -> {
                throw new RetryableException("DOWN", "failure " + n.incrementAndGet());
            })).isInstanceOf(RetryableException.class).hasMessage("failure 3").satisfies(error -> {
                assertThat(error.getSuppressed()).hasSize(3);
                assertThat(error.getSuppressed()[0]).hasMessage("failure 1");
                assertThat(error.getSuppressed()[1]).hasMessage("failure 2");
                RetrySummary summary = RetrySummary.of(error);
                assertThat(summary.attempts()).isEqualTo(3);
                assertThat(summary.outcome()).isEqualTo(RetryOutcome.FAILED_WITH_RETRY);
            });
        } finally {
            logger.detachAppender(appender);
        }
        List<ILoggingEvent> warnings = appender.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0).getMDCPropertyMap()).containsEntry("traceId", "rs1-trace");
        assertThat(warnings.get(0).getFormattedMessage()).contains("Test.op failed after 3 attempt(s)");
    }

    @Test
    void O2_everyErrorOfTheStarterIsAResilienceExceptionThatTheLoopRetriesOnlyWhenItSaysRetryable() {
        Map<ResilienceException, Integer> attemptsByError = Map.of(
                new RetryableException("BUSY", "busy"), 3,
                new ConnectTimeoutException("connect", null), 3,
                new ReadTimeoutException("read", null), 3,
                new NonRetryableException("VALIDATION", "bad"), 1,
                new InsufficientBalance(), 1,
                DeadlineExceededException.budgetSpent("inner"), 1,
                new TimeoutRejectedException("busy pool", null), 1,
                new IdempotencyKeyReusedException("Orders.create"), 1);
        Retrier retrier = retrier(fixed(1).build());
        attemptsByError.forEach((error, attempts) -> assertThat(attemptsUntilFailure(retrier, error))
                .as(error.getClass().getSimpleName()).isEqualTo(attempts));
    }

    @Test
    void C3_aTimeoutInsideTriggersARetryOnlyWhenClassifiedRetryable() {
        Retrier retrier = retrier(fixed(1).build());
        assertThat(attemptsUntilFailure(retrier, new ReadTimeoutException("read timed out", null))).isEqualTo(3);
        assertThat(attemptsUntilFailure(retrier, DeadlineExceededException.budgetSpent("inner"))).isEqualTo(1);
    }

    @Test
    void C3_anAttemptTimeoutInterruptsTheAttemptAndIsRetried() throws Throwable {
        try (TimeoutRuntime runtime = TimeoutRuntime.ofDefaults()) {
            Retrier retrier = Retrier.builder("Test.attempts", fixed(1).attemptTimeout(Duration.ofMillis(500)).build())
                    .timeoutRuntime(runtime).build();
            AtomicInteger attempts = new AtomicInteger();
            String result = retrier.call(() -> {
                if (attempts.incrementAndGet() == 1) {
                    Thread.sleep(20_000);
                }
                return "second attempt";
            });
            assertThat(result).isEqualTo("second attempt");
            assertThat(attempts.get()).isEqualTo(2);
        }
    }

    @Test
    void retryAfterIsHonouredWhenItFitsTheDeadlineAndStopsTheLoopWhenItDoesNot() {
        Duration wait = Duration.ofMillis(250);
        assertThat(attemptsUntilFailure(retrier(fixed(1).maxAttempts(2).build()),
                new RetryableException("THROTTLED", "429", wait, null))).isEqualTo(2);
        assertThat(time.sleeps).containsExactly(wait.toNanos());

        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(200), time)))) {
            assertThat(attemptsUntilFailure(retrier(fixed(1).build()),
                    new RetryableException("THROTTLED", "429", wait, null))).isEqualTo(1);
        }
    }

    @Test
    void aRetryAfterBeyondItsCapWaitsTheCapAndANegativeOneWaitsNothing() {
        // a hostile or sick downstream: a day, the year 9999 (overflowed to a 500 before), a negative wait
        for (Duration asked : List.of(Duration.ofDays(1), Duration.ofDays(365 * 8000L))) {
            time.sleeps.clear();
            assertThat(attemptsUntilFailure(retrier(fixed(1).maxAttempts(2).maxRetryAfter(Duration.ofSeconds(2)).build()),
                    new RetryableException("THROTTLED", "429", asked, null))).isEqualTo(2);
            assertThat(time.sleeps).containsExactly(Duration.ofSeconds(2).toNanos());
        }
        time.sleeps.clear();
        assertThat(attemptsUntilFailure(retrier(fixed(1).maxAttempts(2).build()),
                new RetryableException("THROTTLED", "429", Duration.ofSeconds(-5), null))).isEqualTo(2);
        assertThat(time.sleeps).allMatch(nanos -> nanos == 0);
        assertThat(RetryConfig.ofDefaults().maxRetryAfter()).isEqualTo(RetryConfig.DEFAULT_MAX_RETRY_AFTER);
    }

    @Test
    void eachAttemptSeesItsNumberInTheTraceContext() throws Throwable {
        List<Integer> seen = new ArrayList<>();
        String result = retrier(fixed(1).build()).call(() -> {
            seen.add(TraceContextHolder.current().attempt());
            if (seen.size() < 3) {
                throw new RetryableException("X", "x");
            }
            return "ok";
        });
        assertThat(result).isEqualTo("ok");
        assertThat(seen).containsExactly(1, 2, 3);
        assertThat(TraceContextHolder.current().attempt()).isZero();
    }

    @Test
    void operationsNotKnownToBeIdempotentRetryOnlyRequestsThatWereNeverSent() {
        Retrier cautious = retrier(fixed(1).onlyUnsentFailures(true).build());
        assertThat(attemptsUntilFailure(cautious, new ConnectException("Connection refused"))).isEqualTo(3);
        assertThat(attemptsUntilFailure(cautious, new ReadTimeoutException("read", null))).isEqualTo(1);
    }

    @Test
    void aResultPredicateAsksForAnotherAttempt() throws Throwable {
        AtomicInteger attempts = new AtomicInteger();
        Integer result = retrier(fixed(1).retryOnResult(r -> (Integer) r < 2).build())
                .call(attempts::incrementAndGet);
        assertThat(result).isEqualTo(2);
    }

    @Test
    void theProgrammaticApiRunsWithoutSpring() throws Throwable {
        AtomicInteger attempts = new AtomicInteger();
        String result = Retrier.of("inventory.reserve", RetryConfig.custom()
                .backOff(new FixedBackOff(Duration.ofMillis(5))).build()).call(() -> {
                    if (attempts.incrementAndGet() < 2) {
                        throw new ConnectException("refused");
                    }
                    return "reserved";
                });
        assertThat(result).isEqualTo("reserved");
        assertThat(attempts.get()).isEqualTo(2);
    }
}
