package io.github.resiliencestarter.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code @Timeout} in observe mode (docs/rollout.md): the call runs as without a timeout and is
 * counted when it passed the limit; a rollout enforces the share of trace ids it covers.
 */
class ObservedTimeoutTest {

    private final ManualTime time = new ManualTime(1_000_000L);

    private final List<TimeoutOutcome> outcomes = new ArrayList<>();

    private final TimeoutRuntime runtime = TimeoutRuntime.builder().timeSource(time)
            .observer((operation, outcome, nanos) -> {
                synchronized (outcomes) {
                    outcomes.add(outcome);
                }
            }).build();

    @AfterEach
    void close() {
        runtime.close();
    }

    private TimeoutGuard guard(TimeoutConfig.Builder config) {
        return TimeoutGuard.of("Test.op", config.timeout(Duration.ofMillis(100)).build(), runtime);
    }

    @Test
    void O1_anObservedCallRunsPastItsLimitOnTheCallersThreadUncutAndCountsAWouldTimeout() throws Throwable {
        Thread caller = Thread.currentThread();

        String result = guard(TimeoutConfig.custom().mode(TimeoutMode.OBSERVE)).call(() -> {
            assertThat(Thread.currentThread()).as("not offloaded").isSameAs(caller);
            assertThat(TraceContextHolder.current().deadline()).as("the caller's context, not narrowed").isNull();
            time.advance(250);
            return "late but whole";
        });

        assertThat(result).isEqualTo("late but whole");
        assertThat(Thread.interrupted()).as("never interrupted").isFalse();
        assertThat(outcomes).containsExactly(TimeoutOutcome.WOULD_TIMEOUT);
    }

    @Test
    void O1_anObservedCallPastTheCallersShorterBudgetCountsAWouldTimeoutAndOneWithoutInheritanceDoesNot()
            throws Throwable {
        TraceContext budget = TraceContext.empty().withDeadline(Deadline.afterNanos(TimeUnit.MILLISECONDS.toNanos(30), time));
        try (TraceScope scope = TraceContextHolder.open(budget)) {
            guard(TimeoutConfig.custom().mode(TimeoutMode.OBSERVE)).call(() -> time.advance(40));
            guard(TimeoutConfig.custom().mode(TimeoutMode.OBSERVE).inheritDeadline(false)).call(() -> time.advance(40));
        }

        assertThat(outcomes).containsExactly(TimeoutOutcome.WOULD_TIMEOUT, TimeoutOutcome.SUCCESS);
    }

    @Test
    void O1_anObservedCallWithinItsLimitCountsASuccess() throws Throwable {
        guard(TimeoutConfig.custom().mode(TimeoutMode.OBSERVE)).call(() -> time.advance(40));

        assertThat(outcomes).containsExactly(TimeoutOutcome.SUCCESS);
    }

    @Test
    void O1_anObservedAsynchronousResultIsTheWorksOwnAndIsNotEndedAtTheLimit() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();

        CompletableFuture<String> result = guard(TimeoutConfig.custom().mode(TimeoutMode.OBSERVE)).callAsync(() -> work);
        time.advance(250);

        assertThat(result).as("nothing bounds it").isSameAs(work).isNotDone();
        work.complete("done");
        assertThat(result.get(1, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(outcomes).containsExactly(TimeoutOutcome.WOULD_TIMEOUT);
    }

    @Test
    void O1_aRolloutOfTwentyPercentEnforcesAboutAFifthOfTraceIdsAndTheSameOnesOnAnotherInstance()
            throws Throwable {
        TimeoutGuard first = guard(TimeoutConfig.custom().mode(TimeoutMode.INTERRUPT).rollout(20));
        TimeoutGuard second = guard(TimeoutConfig.custom().mode(TimeoutMode.INTERRUPT).rollout(20));
        int enforced = 0;
        for (int i = 0; i < 1_000; i++) {
            String traceId = "trace-" + i + "-" + Integer.toHexString(i * 7919);
            boolean onFirst = enforcedFor(first, traceId);
            assertThat(enforcedFor(second, traceId)).as("one decision per trace id on every instance")
                    .isEqualTo(onFirst);
            enforced += onFirst ? 1 : 0;
        }
        assertThat(enforced).isBetween(150, 250);
    }

    /** An enforced call runs inside the guard's own, narrowed deadline; an observed one does not. */
    private static boolean enforcedFor(TimeoutGuard guard, String traceId) throws Throwable {
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId(traceId))) {
            return guard.call(() -> TraceContextHolder.current().deadline() != null);
        }
    }

    @Test
    void O1_enforcedCallsAreStillCutAndCountedAsTimeouts() {
        TimeoutGuard enforcing = guard(TimeoutConfig.custom().mode(TimeoutMode.INTERRUPT));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> enforcing.call(() -> time.advance(250)))
                .isInstanceOf(DeadlineExceededException.class);
        assertThat(outcomes).containsExactly(TimeoutOutcome.TIMEOUT);
    }
}
