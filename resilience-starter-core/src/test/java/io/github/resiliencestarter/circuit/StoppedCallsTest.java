package io.github.resiliencestarter.circuit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.context.CancelMark;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.retry.HedgePolicy;
import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutGuard;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 47, item 5: whoever stops a call from this side marks it first ({@link CancelMark}), and the
 * breaker judges by the mark, not by how the client reported the stop. Each stopped attempt here
 * reports its interrupt as an {@link IOException} (as Spring's JDK client does), which the
 * breaker's classification alone would count as a failure.
 */
class StoppedCallsTest {

    private static final long GENEROUS_SECONDS = 30;

    private static final TimeoutRuntime RUNTIME = TimeoutRuntime.ofDefaults();

    private final List<CircuitOutcome> outcomes = new CopyOnWriteArrayList<>();

    private final CountDownLatch judged = new CountDownLatch(2);

    private final CountDownLatch oneJudged = new CountDownLatch(1);

    private final CircuitGuard breaker = CircuitGuard.builder("stock", CircuitBreakerConfig.custom().build())
            .observer(new CircuitObserver() {
                @Override
                public void onCall(String circuit, CircuitOutcome outcome) {
                    outcomes.add(outcome);
                    judged.countDown();
                    oneJudged.countDown();
                }
            }).build();

    private final AtomicReference<CancelMark> firstAttemptsMark = new AtomicReference<>();

    private final CountDownLatch firstAttemptRuns = new CountDownLatch(1);

    @AfterAll
    static void closeRuntime() {
        RUNTIME.close();
    }

    private static Retrier hedgedAfter(long millis) {
        return Retrier.builder("Stock.level", RetryConfig.custom().maxAttempts(2)
                .hedge(HedgePolicy.after(Duration.ofMillis(millis))).build()).timeoutRuntime(RUNTIME).build();
    }

    /**
     * Blocking work whose first attempt waits until it is interrupted and reports the interrupt as
     * an I/O failure; any later attempt answers at once.
     */
    private CheckedCallable<String> firstAttemptHangs() {
        return () -> {
            if (TraceContextHolder.current().attempt() > 1) {
                return "hedge";
            }
            firstAttemptsMark.set(TraceContextHolder.current().cancelMark());
            firstAttemptRuns.countDown();
            try {
                new CountDownLatch(1).await(GENEROUS_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                throw new IOException("Request was interrupted", ex);
            }
            return "first";
        };
    }

    /** Interrupts the calling thread, from another, once the first attempt has started. */
    private CompletableFuture<Void> interruptThisThreadOnceTheFirstAttemptRuns() {
        Thread caller = Thread.currentThread();
        return CompletableFuture.runAsync(() -> {
            try {
                firstAttemptRuns.await(GENEROUS_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            caller.interrupt();
        });
    }

    private void awaitBothJudged() throws InterruptedException {
        assertThat(judged.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).as("both attempts judged").isTrue();
    }

    @Test
    void R6_aBlockingHedgesLoserIsMarkedBeforeItIsCancelledAndIgnored() throws Throwable {
        CheckedCallable<String> work = firstAttemptHangs();

        assertThat(hedgedAfter(20).call(() -> breaker.call(work))).isEqualTo("hedge");

        awaitBothJudged();
        assertThat(firstAttemptsMark.get().reason()).isEqualTo(CancelMark.Reason.LOST_TO_HEDGE);
        assertThat(outcomes).containsExactlyInAnyOrder(CircuitOutcome.SUCCESS, CircuitOutcome.IGNORED);
        assertThat(breaker.snapshot().failedCalls()).isZero();
    }

    @Test
    void R6_aBlockingHedgedCallWhoseCallerIsInterruptedMarksItsAttemptsAsGivenUp() throws Throwable {
        // no hedge comes before the caller gives up
        Retrier retrier = hedgedAfter(60_000);
        CheckedCallable<String> work = firstAttemptHangs();
        CompletableFuture<Void> interrupter = interruptThisThreadOnceTheFirstAttemptRuns();

        Throwable failure = catchThrowable(() -> retrier.call(() -> breaker.call(work)));
        boolean wasInterrupted = Thread.interrupted();
        interrupter.join();

        assertThat(failure).isInstanceOf(InterruptedException.class);
        assertThat(wasInterrupted).as("the caller keeps its interrupt").isTrue();
        assertThat(awaitOne()).isEqualTo(CircuitOutcome.IGNORED);
        assertThat(firstAttemptsMark.get().reason()).isEqualTo(CancelMark.Reason.CALLER_GONE);
    }

    @Test
    void R6_anAsyncHedgesLoserIsMarkedAndACancelledCallsAttemptsAreMarkedAsGivenUp() throws Throwable {
        CompletableFuture<String> never = new CompletableFuture<>();
        Retrier retrier = hedgedAfter(20);

        String won = retrier.callAsync(() -> breaker.callAsync(() -> {
            if (TraceContextHolder.current().attempt() > 1) {
                return CompletableFuture.completedFuture("hedge");
            }
            firstAttemptsMark.set(TraceContextHolder.current().cancelMark());
            return never;
        })).get(GENEROUS_SECONDS, TimeUnit.SECONDS);

        assertThat(won).isEqualTo("hedge");
        awaitBothJudged();
        assertThat(firstAttemptsMark.get().reason()).isEqualTo(CancelMark.Reason.LOST_TO_HEDGE);
        assertThat(outcomes).containsExactlyInAnyOrder(CircuitOutcome.SUCCESS, CircuitOutcome.IGNORED);

        AtomicReference<CancelMark> givenUp = new AtomicReference<>();
        CompletableFuture<String> abandoned = hedgedAfter(60_000).callAsync(() -> {
            givenUp.set(TraceContextHolder.current().cancelMark());
            return new CompletableFuture<String>();
        });
        abandoned.cancel(true);
        assertThat(givenUp.get().reason()).isEqualTo(CancelMark.Reason.CALLER_GONE);
    }

    @Test
    void R6_anOffloadedCallWhoseCallerIsInterruptedIsMarkedAsGivenUpAndIgnored() throws Throwable {
        TimeoutGuard timeout = TimeoutGuard.of("Stock.level",
                TimeoutConfig.custom().timeout(Duration.ofSeconds(GENEROUS_SECONDS)).mode(TimeoutMode.OFFLOAD).build(),
                RUNTIME);
        CheckedCallable<String> work = firstAttemptHangs();
        CompletableFuture<Void> interrupter = interruptThisThreadOnceTheFirstAttemptRuns();

        Throwable failure = catchThrowable(() -> timeout.call(() -> breaker.call(work)));
        Thread.interrupted();
        interrupter.join();

        assertThat(failure).isInstanceOf(InterruptedException.class);
        assertThat(awaitOne()).isEqualTo(CircuitOutcome.IGNORED);
        assertThat(firstAttemptsMark.get().reason()).isEqualTo(CancelMark.Reason.CALLER_GONE);
        assertThat(breaker.snapshot().failedCalls()).isZero();
    }

    /** Waits for the one call the breaker judges, on the worker's thread. */
    private CircuitOutcome awaitOne() throws InterruptedException {
        assertThat(oneJudged.await(GENEROUS_SECONDS, TimeUnit.SECONDS)).as("the call judged").isTrue();
        return outcomes.get(0);
    }
}
