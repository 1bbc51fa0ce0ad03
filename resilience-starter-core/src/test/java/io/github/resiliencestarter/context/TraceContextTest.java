package io.github.resiliencestarter.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.ttl.threadpool.TtlExecutors;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class TraceContextTest {

    private ExecutorService pool;

    @AfterEach
    void shutdown() throws InterruptedException {
        if (pool != null) {
            pool.shutdownNow();
            pool.awaitTermination(5, TimeUnit.SECONDS);
        }
        MDC.clear();
    }

    @Test
    void nestedScopesRestoreThePreviousSnapshotInOrder() {
        TraceContext outer = TraceContext.empty().withTraceId("outer");
        TraceContext inner = outer.withTraceId("inner");
        try (TraceScope a = TraceContextHolder.open(outer)) {
            try (TraceScope b = TraceContextHolder.open(inner)) {
                assertThat(TraceContextHolder.current().traceId()).isEqualTo("inner");
                assertThat(MDC.get(TraceContextHolder.MDC_TRACE_ID)).isEqualTo("inner");
            }
            assertThat(TraceContextHolder.current().traceId()).isEqualTo("outer");
            assertThat(MDC.get(TraceContextHolder.MDC_TRACE_ID)).isEqualTo("outer");
        }
        assertThat(TraceContextHolder.current()).isSameAs(TraceContext.empty());
        assertThat(MDC.get(TraceContextHolder.MDC_TRACE_ID)).isNull();
    }

    @Test
    void aContextRunWithinTheCurrentTraceIsInstalledForTheWorkAndTakenBackAfterItEvenWhenItThrows()
            throws Throwable {
        TraceContext outer = TraceContext.empty().withTraceId("outer");
        TraceContext attempt = outer.withAttempt(2);
        try (TraceScope a = TraceContextHolder.open(outer)) {
            int seen = TraceContextHolder.callWithin(attempt, () -> TraceContextHolder.current().attempt());
            assertThat(seen).isEqualTo(2);
            assertThat(TraceContextHolder.current()).isSameAs(outer);

            assertThatThrownBy(() -> TraceContextHolder.callWithin(attempt, () -> {
                throw new IllegalStateException("attempt failed");
            })).hasMessage("attempt failed");
            assertThat(TraceContextHolder.current()).isSameAs(outer);
            assertThat(MDC.get(TraceContextHolder.MDC_TRACE_ID)).isEqualTo("outer");
        }
    }

    @Test
    void aContextRunWithinAnotherTraceSetsTheMdcForTheWorkAndPutsItBackAfter() throws Throwable {
        TraceContext outer = TraceContext.empty().withTraceId("outer");
        try (TraceScope a = TraceContextHolder.open(outer)) {
            String mdcInside = TraceContextHolder.callWithin(outer.withTraceId("other"),
                    () -> MDC.get(TraceContextHolder.MDC_TRACE_ID));
            assertThat(mdcInside).isEqualTo("other");
            assertThat(TraceContextHolder.current()).isSameAs(outer);
            assertThat(MDC.get(TraceContextHolder.MDC_TRACE_ID)).isEqualTo("outer");
        }
        // a thread with no context yet (a fresh hedge worker): the context and MDC are cleaned up after
        String onFresh = Executors.newSingleThreadExecutor().submit(() -> {
            try {
                return TraceContextHolder.callWithin(outer, () -> MDC.get(TraceContextHolder.MDC_TRACE_ID))
                        + "/" + TraceContextHolder.current().traceId() + "/" + MDC.get(TraceContextHolder.MDC_TRACE_ID);
            } catch (Throwable ex) {
                throw new IllegalStateException(ex);
            }
        }).get();
        assertThat(onFresh).isEqualTo("outer/null/null");
    }

    @Test
    void closingAScopeTwiceDoesNotRestoreTwice() {
        TraceScope a = TraceContextHolder.open(TraceContext.empty().withTraceId("a"));
        TraceScope b = TraceContextHolder.open(TraceContext.empty().withTraceId("b"));
        b.close();
        b.close();
        assertThat(TraceContextHolder.current().traceId()).isEqualTo("a");
        a.close();
        assertThat(TraceContextHolder.current().traceId()).isNull();
    }

    @Test
    void T1_innerShorterDeadlineWinsAndInnerLongerDeadlineDoesNotExtend() {
        TraceContext outer = TraceContext.empty().withDeadline(Deadline.after(Duration.ofSeconds(1)));
        TraceContext shorter = outer.withDeadline(Deadline.after(Duration.ofMillis(100)));
        TraceContext longer = outer.withDeadline(Deadline.after(Duration.ofSeconds(60)));

        assertThat(shorter.deadline().remaining()).isLessThanOrEqualTo(Duration.ofMillis(100));
        assertThat(longer.deadline()).isSameAs(outer.deadline());
        assertThat(longer.deadline().remaining()).isLessThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(longer).isSameAs(outer);
    }

    @Test
    void T1_budgetsShrinkAcrossNestedScopes() {
        try (TraceScope request = TraceContextHolder.open(
                TraceContext.empty().withDeadline(Deadline.after(Duration.ofMillis(900))))) {
            long inbound = TraceContextHolder.current().deadline().remainingMillis();
            try (TraceScope nested = TraceContextHolder.open(
                    TraceContextHolder.current().withDeadline(Deadline.after(Duration.ofSeconds(5))))) {
                long outbound = TraceContextHolder.current().deadline().remainingMillis();
                assertThat(outbound).isLessThanOrEqualTo(inbound).isPositive();
            }
        }
    }

    @Test
    void aPooledThreadDoesNotSeeAPreviousRequestsContext() throws Exception {
        pool = TtlExecutors.getTtlExecutorService(Executors.newFixedThreadPool(1));
        AtomicReference<String> during = new AtomicReference<>();
        try (TraceScope request = TraceContextHolder.open(TraceContext.empty().withTraceId("request-1"))) {
            // the pool's only thread is created here, while request-1 is active
            pool.submit(() -> during.set(TraceContextHolder.current().traceId())).get();
        }
        String after = pool.submit(() -> TraceContextHolder.current().traceId()).get();
        String mdcAfter = pool.submit(() -> MDC.get(TraceContextHolder.MDC_TRACE_ID)).get();

        assertThat(during.get()).isEqualTo("request-1");
        assertThat(after).isNull();
        assertThat(mdcAfter).isNull();
    }

    @Test
    void aThreadCreatedDuringARequestDoesNotInheritItsContext() throws Exception {
        pool = Executors.newFixedThreadPool(1);
        try (TraceScope request = TraceContextHolder.open(TraceContext.empty().withTraceId("request-1"))) {
            String seen = pool.submit(() -> TraceContextHolder.current().traceId()).get();
            assertThat(seen).isNull();
        }
    }

    @Test
    void contextAndMdcCrossATtlWrappedExecutor() throws Exception {
        pool = TtlExecutors.getTtlExecutorService(Executors.newFixedThreadPool(2));
        MDC.put("userId", "u-7");
        Deadline deadline = Deadline.after(Duration.ofSeconds(3));
        try (TraceScope request = TraceContextHolder.open(
                TraceContext.empty().withTraceId("abc").withDeadline(deadline).withAttempt(2))) {
            TraceContext seen = pool.submit(TraceContextHolder::current).get();
            String mdcTrace = pool.submit(() -> MDC.get(TraceContextHolder.MDC_TRACE_ID)).get();
            String mdcUser = pool.submit(() -> MDC.get("userId")).get();

            assertThat(seen.traceId()).isEqualTo("abc");
            assertThat(seen.deadline()).isSameAs(deadline);
            assertThat(seen.attempt()).isEqualTo(2);
            assertThat(mdcTrace).isEqualTo("abc");
            assertThat(mdcUser).isEqualTo("u-7");
        }
    }
}
