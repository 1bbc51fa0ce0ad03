package io.github.resiliencestarter.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Micrometer context snapshots carry the trace context and leave the worker clean. */
class TraceContextAccessorTest {

    @Test
    void aContextSnapshotCarriesTheTraceContextToAnotherThread() throws Exception {
        ContextRegistry registry = new ContextRegistry().registerThreadLocalAccessor(new TraceContextAccessor());
        ContextSnapshotFactory snapshots = ContextSnapshotFactory.builder().contextRegistry(registry).build();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            ContextSnapshot snapshot;
            try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("snap-1"))) {
                snapshot = snapshots.captureAll();
            }
            String inside = pool.submit(snapshot.wrap(() -> TraceContextHolder.current().traceId())).get();
            String after = pool.submit(() -> TraceContextHolder.current().traceId()).get();
            assertThat(inside).isEqualTo("snap-1");
            assertThat(after).isNull();
        } finally {
            pool.shutdownNow();
        }
    }
}
