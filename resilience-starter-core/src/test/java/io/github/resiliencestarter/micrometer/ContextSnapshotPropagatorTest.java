package io.github.resiliencestarter.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.ContextPropagator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Issue 48, item 1: the current observation reaches the starter's workers, while the worker keeps
 * the narrowed trace context it opened (the starter's own key is left out of the snapshot).
 */
class ContextSnapshotPropagatorTest {

    @Test
    void theObservationReachesTheWorkerAndTheWorkersOwnTraceContextStays() throws Exception {
        ObservationRegistry observations = ObservationRegistry.create();
        ObservationThreadLocalAccessor accessor = new ObservationThreadLocalAccessor();
        accessor.setObservationRegistry(observations);
        ContextRegistry registry = new ContextRegistry().registerThreadLocalAccessor(accessor)
                .registerThreadLocalAccessor(new TraceContextAccessor());
        ContextPropagator propagator = new ContextSnapshotPropagator(registry);
        Observation request = Observation.start("http.server.requests", observations);
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try {
            ContextPropagator.Restorer captured;
            try (Observation.Scope scope = request.openScope();
                    TraceScope outer = TraceContextHolder.open(TraceContext.empty().withTraceId("outer"))) {
                captured = propagator.capture();
            }
            String[] seen = worker.submit(() -> {
                try (TraceScope narrowed = TraceContextHolder.open(TraceContext.empty().withTraceId("narrowed"));
                        ContextPropagator.Restorer.Scope restored = captured.restore()) {
                    Observation current = observations.getCurrentObservation();
                    return new String[] {current == request ? "request" : String.valueOf(current),
                        TraceContextHolder.current().traceId()};
                }
            }).get();
            Observation after = worker.submit(observations::getCurrentObservation).get();

            assertThat(seen).containsExactly("request", "narrowed");
            assertThat(after).as("the worker left as it was").isNull();
        } finally {
            worker.shutdownNow();
            request.stop();
        }
    }
}
