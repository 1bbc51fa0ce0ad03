package io.github.resiliencestarter.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.timeout.support.TimeoutExecutors;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class TimeoutGuardTest {

    private final TimeoutRuntime runtime = TimeoutRuntime.builder()
            .executor(TimeoutExecutors.newBoundedExecutor("test-timeout-", 2, 4, 0, Duration.ofSeconds(10)))
            .awaitTermination(Duration.ofSeconds(5))
            .build();

    @AfterEach
    void close() {
        runtime.close();
        MDC.clear();
    }

    private TimeoutGuard guard(Duration timeout, TimeoutMode mode) {
        return TimeoutGuard.of("Test.op", TimeoutConfig.custom().timeout(timeout).mode(mode).build(), runtime);
    }

    @Test
    void T3_offloadInterruptsTheRunningWorkAndItStopsWriting() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        AtomicBoolean sawInterrupt = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);
        long start = System.nanoTime();

        assertThatThrownBy(() -> guard(Duration.ofMillis(200), TimeoutMode.OFFLOAD).call(() -> {
            try {
                while (true) {
                    writes.incrementAndGet();
                    Thread.sleep(10);
                }
            } catch (InterruptedException ex) {
                sawInterrupt.set(true);
                throw ex;
            } finally {
                ended.countDown();
            }
        })).isInstanceOf(DeadlineExceededException.class)
                .satisfies(ex -> assertThat(((DeadlineExceededException) ex).reason())
                        .isEqualTo(DeadlineExceededException.Reason.TIMED_OUT));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
        assertThat(ended.await(2, TimeUnit.SECONDS)).isTrue();
        assertThat(sawInterrupt).isTrue();
        int afterStop = writes.get();
        Thread.sleep(200);
        assertThat(writes.get()).isEqualTo(afterStop);
    }

    @Test
    void anOffloadCallerStopsLookingForItsResultBeforeParkingOnceItsWorkTakesMilliseconds() throws Throwable {
        TimeoutGuard guard = guard(Duration.ofSeconds(5), TimeoutMode.OFFLOAD);
        assertThat(guard.resultWaitNanos()).as("a first call looks for a while").isPositive();

        // each wait of milliseconds halves the window, from 5 µs, towards nothing
        for (int call = 0; call < 16; call++) {
            assertThat(guard.call(() -> {
                Thread.sleep(2);
                return "done";
            })).isEqualTo("done");
        }

        assertThat(guard.resultWaitNanos()).as("parks at once: a spin would cost more than it saves").isZero();
    }

    @Test
    void T3_interruptModeInterruptsTheCallerThreadAndTheFlagDoesNotLeak() {
        AtomicBoolean sawInterrupt = new AtomicBoolean();
        long start = System.nanoTime();

        assertThatThrownBy(() -> guard(Duration.ofMillis(200), TimeoutMode.INTERRUPT).call(() -> {
            try {
                Thread.sleep(5_000);
                return "late";
            } catch (InterruptedException ex) {
                sawInterrupt.set(true);
                throw ex;
            }
        })).isInstanceOf(DeadlineExceededException.class)
                .hasCauseInstanceOf(InterruptedException.class);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
        assertThat(sawInterrupt).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    /**
     * Work abandoned by its timeout and interrupted: a slow downstream wait that would be followed
     * by a write. Reports whether the wait was interrupted and whether the late write happened.
     */
    private static final class AbandonedWrite implements CheckedCallable<String> {

        final AtomicBoolean interrupted = new AtomicBoolean();

        final AtomicInteger lateWrites = new AtomicInteger();

        final CountDownLatch ended = new CountDownLatch(1);

        private final CountDownLatch downstreamNeverAnswers = new CountDownLatch(1);

        @Override
        public String call() {
            try {
                downstreamNeverAnswers.await(10, TimeUnit.SECONDS);
                lateWrites.incrementAndGet();
            } catch (InterruptedException ex) {
                interrupted.set(true);
            } finally {
                ended.countDown();
            }
            return "written";
        }
    }

    @Test
    void TP2_offloadInterruptsTheAbandonedWorkSoItWritesNothingAfterTheTimeout() throws Exception {
        AbandonedWrite work = new AbandonedWrite();

        assertThatThrownBy(() -> guard(Duration.ofMillis(100), TimeoutMode.OFFLOAD).call(work))
                .isInstanceOf(DeadlineExceededException.class);

        work.ended.await(20, TimeUnit.SECONDS);
        assertThat(work.interrupted).as("the abandoned work was interrupted").isTrue();
        assertThat(work.lateWrites).as("writes after the caller gave up").hasValue(0);
    }

    @Test
    void TP2_interruptModeInterruptsTheAbandonedWorkSoItWritesNothingAfterTheTimeout() throws Exception {
        AbandonedWrite work = new AbandonedWrite();

        assertThatThrownBy(() -> guard(Duration.ofMillis(100), TimeoutMode.INTERRUPT).call(work))
                .isInstanceOf(DeadlineExceededException.class);

        assertThat(work.ended.getCount()).isZero();
        assertThat(work.interrupted).as("the abandoned work was interrupted").isTrue();
        assertThat(work.lateWrites).as("writes after the caller gave up").hasValue(0);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void workThatIgnoresTheInterruptStillEndsInATimeoutError() {
        assertThatThrownBy(() -> guard(Duration.ofMillis(100), TimeoutMode.INTERRUPT).call(() -> {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            return "ignored the interrupt";
        })).isInstanceOf(DeadlineExceededException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void offloadReleasesTheCallerAtTheDeadlineEvenWhenTheWorkIgnoresInterrupts() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        assertThatThrownBy(() -> guard(Duration.ofMillis(150), TimeoutMode.OFFLOAD).call(() -> {
            try {
                boolean released = false;
                while (!released) {
                    try {
                        released = release.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException ignored) {
                        // work that swallows the interrupt
                    }
                }
                return "too late";
            } finally {
                ended.countDown();
            }
        })).isInstanceOf(DeadlineExceededException.class);
        // the caller is back while the work still runs: released by the deadline, not by the work ending
        assertThat(ended.getCount()).isEqualTo(1);
        release.countDown();
        assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aSpentBudgetFailsFastWithoutInvokingTheWork() {
        AtomicBoolean invoked = new AtomicBoolean();
        TraceContext spent = TraceContext.empty().withDeadline(Deadline.after(Duration.ZERO));
        for (TimeoutMode mode : new TimeoutMode[] {TimeoutMode.OFFLOAD, TimeoutMode.INTERRUPT}) {
            try (TraceScope scope = TraceContextHolder.open(spent)) {
                assertThatThrownBy(() -> guard(Duration.ofSeconds(1), mode).call(() -> invoked.getAndSet(true)))
                        .isInstanceOf(DeadlineExceededException.class)
                        .satisfies(ex -> assertThat(((DeadlineExceededException) ex).reason())
                                .isEqualTo(DeadlineExceededException.Reason.BUDGET_SPENT));
            }
        }
        assertThat(invoked).isFalse();
    }

    @Test
    void T1_theWorkSeesTheEarlierOfInheritedAndLocalDeadline() throws Throwable {
        TraceContext request = TraceContext.empty().withTraceId("t1")
                .withDeadline(Deadline.after(Duration.ofMillis(300)));
        try (TraceScope scope = TraceContextHolder.open(request)) {
            long inside = guard(Duration.ofSeconds(10), TimeoutMode.OFFLOAD)
                    .call(() -> TraceContextHolder.current().deadline().remainingMillis());
            assertThat(inside).isLessThanOrEqualTo(300).isPositive();

            long local = guard(Duration.ofMillis(100), TimeoutMode.INTERRUPT)
                    .call(() -> TraceContextHolder.current().deadline().remainingMillis());
            assertThat(local).isLessThanOrEqualTo(100);
        }
    }

    @Test
    void inheritDeadlineFalseLetsWorkOutliveTheCallersBudget() throws Throwable {
        TimeoutGuard detached = TimeoutGuard.of("Test.detached", TimeoutConfig.custom()
                .timeout(Duration.ofSeconds(5)).inheritDeadline(false).build(), runtime);
        try (TraceScope scope = TraceContextHolder.open(
                TraceContext.empty().withDeadline(Deadline.after(Duration.ofMillis(50))))) {
            long inside = detached.call(() -> TraceContextHolder.current().deadline().remainingMillis());
            assertThat(inside).isGreaterThan(1_000);
        }
    }

    @Test
    void offloadCarriesTraceIdMdcAndExtraContextToTheWorker() throws Throwable {
        ThreadLocal<String> tenant = new ThreadLocal<>();
        ContextPropagator tenantPropagator = () -> {
            String captured = tenant.get();
            return () -> {
                tenant.set(captured);
                return tenant::remove;
            };
        };
        try (TimeoutRuntime withPropagator = TimeoutRuntime.builder().propagator(tenantPropagator).build()) {
            TimeoutGuard guard = TimeoutGuard.of("Test.ctx", TimeoutConfig.ofDefaults(), withPropagator);
            tenant.set("acme");
            MDC.put("userId", "u-1");
            try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("trace-42"))) {
                String seen = guard.call(() -> Thread.currentThread().getName() + "|"
                        + TraceContextHolder.current().traceId() + "|" + MDC.get(TraceContextHolder.MDC_TRACE_ID)
                        + "|" + MDC.get("userId") + "|" + tenant.get());
                assertThat(seen).startsWith("resilience-timeout-").endsWith("|trace-42|trace-42|u-1|acme");
            } finally {
                tenant.remove();
            }
        }
    }

    @Test
    void checkedExceptionsPassThroughUnchanged() {
        IOException failure = new IOException("disk");
        assertThatThrownBy(() -> guard(Duration.ofSeconds(1), TimeoutMode.OFFLOAD).call(() -> {
            throw failure;
        })).isSameAs(failure);
        assertThatThrownBy(() -> guard(Duration.ofSeconds(1), TimeoutMode.INTERRUPT).call(() -> {
            throw failure;
        })).isSameAs(failure);
    }

    @Test
    void aSaturatedExecutorRejectsAtOnceAndNeverRunsOnTheCaller() throws Exception {
        try (TimeoutRuntime tiny = TimeoutRuntime.builder()
                .executor(TimeoutExecutors.newBoundedExecutor("tiny-", 1, 1, 0, Duration.ofSeconds(10)))
                .awaitTermination(Duration.ofSeconds(5)).build()) {
            TimeoutGuard guard = TimeoutGuard.of("Test.busy", TimeoutConfig.custom()
                    .timeout(Duration.ofSeconds(3)).build(), tiny);
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread occupant = new Thread(() -> {
                try {
                    guard.call(() -> {
                        holding.countDown();
                        release.await();
                        return null;
                    });
                } catch (Throwable ignored) {
                    // only occupies the single worker
                }
            });
            occupant.start();
            assertThat(holding.await(2, TimeUnit.SECONDS)).isTrue();

            AtomicReference<String> ranOn = new AtomicReference<>();
            long start = System.nanoTime();
            assertThatThrownBy(() -> guard.call(() -> {
                ranOn.set(Thread.currentThread().getName());
                return null;
            })).isInstanceOf(TimeoutRejectedException.class);
            // well below the 3 s timeout a queued or caller-run call would wait for
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            assertThat(ranOn.get()).isNull();

            release.countDown();
            occupant.join(2_000);
        }
    }

    @Test
    void theWorkersInterruptFlagDoesNotLeakIntoTheNextTask() throws Throwable {
        // one worker and a queue of one: the next task waits for the interrupted worker, whenever it is free
        try (TimeoutRuntime single = TimeoutRuntime.builder()
                .executor(TimeoutExecutors.newBoundedExecutor("single-", 1, 1, 1, Duration.ofSeconds(10)))
                .build()) {
            CountDownLatch interruptedTaskEnded = new CountDownLatch(1);
            assertThatThrownBy(() -> TimeoutGuard.of("Test.leak", TimeoutConfig.custom()
                    .timeout(Duration.ofMillis(100)).build(), single).call(() -> {
                        try {
                            Thread.sleep(20_000);
                            return null;
                        } finally {
                            interruptedTaskEnded.countDown();
                        }
                    })).isInstanceOf(DeadlineExceededException.class);
            assertThat(interruptedTaskEnded.await(20, TimeUnit.SECONDS)).isTrue();
            boolean interrupted = TimeoutGuard.of("Test.next", TimeoutConfig.custom()
                    .timeout(Duration.ofSeconds(20)).build(), single).call(() -> Thread.currentThread().isInterrupted());
            assertThat(interrupted).isFalse();
        }
    }
}
