package io.github.resiliencestarter.tracing;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.MDC;

/** What each party takes the trace id to be, where a handler runs: the tracer, the MDC, the starter. */
final class TraceIds {

    private final Tracer tracer;

    TraceIds(Tracer tracer) {
        this.tracer = tracer;
    }

    Map<String, String> seen() {
        Span span = tracer.currentSpan();
        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("tracer", span == null ? "none" : span.context().traceId());
        ids.put("mdc", String.valueOf(MDC.get("traceId")));
        ids.put("starter", String.valueOf(TraceContextHolder.current().traceId()));
        return ids;
    }
}
