package io.github.resiliencestarter.tracing;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * An application as production teams run it: Micrometer Tracing with Brave, Boot's
 * auto-configured {@code RestClient.Builder}, and the starter. Its handlers answer the trace ids
 * each party sees where the handler runs, and call a downstream service with the builder's client.
 */
@SpringBootApplication
@Import(TracedApplication.Orders.class)
public class TracedApplication {

    /** The spans the tracer finished, as Brave reports them. */
    static final FinishedSpans FINISHED = new FinishedSpans();

    /** Keeps every finished span. */
    static final class FinishedSpans extends SpanHandler {

        final List<MutableSpan> spans = new CopyOnWriteArrayList<>();

        @Override
        public boolean end(TraceContext context, MutableSpan span, Cause cause) {
            spans.add(span);
            return true;
        }
    }

    /** Every span the tracer finishes. */
    @Bean
    SpanHandler finishedSpans() {
        return FINISHED;
    }

    /** The handlers. */
    @RestController
    static class Orders {

        private final RestClient client;

        private final Tracer tracer;

        Orders(RestClient.Builder builder, Tracer tracer) {
            this.client = builder.build();
            this.tracer = tracer;
        }

        /** No annotation: what adding the starter does to a traced request. */
        @GetMapping("/plain")
        Map<String, String> plain() {
            return ids();
        }

        /** Under {@code @Timeout} (OFFLOAD, the default): the handler runs on a timeout worker. */
        @GetMapping("/offloaded")
        @Timeout("5s")
        Map<String, String> offloaded(@RequestParam String downstream) {
            Map<String, String> ids = ids();
            client.get().uri(downstream).retrieve().toBodilessEntity();
            return ids;
        }

        /** Under {@code @Retry}: fails its first two attempts, answers on the third. */
        @GetMapping("/retried")
        @Retry(maxAttempts = 3, delay = "10ms")
        Map<String, String> retried() {
            if (TraceContextHolder.current().attempt() < 3) {
                throw new RetryableException("FLAKY", "not yet");
            }
            return ids();
        }

        private Map<String, String> ids() {
            Span span = tracer.currentSpan();
            Map<String, String> ids = new LinkedHashMap<>();
            ids.put("tracer", span == null ? "none" : span.context().traceId());
            ids.put("mdc", String.valueOf(MDC.get("traceId")));
            ids.put("starter", String.valueOf(TraceContextHolder.current().traceId()));
            return ids;
        }
    }
}
