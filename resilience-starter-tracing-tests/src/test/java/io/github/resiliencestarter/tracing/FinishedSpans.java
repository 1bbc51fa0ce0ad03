package io.github.resiliencestarter.tracing;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Records every span the tracer finishes, whichever bridge it is: an in-memory exporter for
 * Brave and one for OpenTelemetry (the one of the bridge not in use stays idle).
 */
@Configuration(proxyBeanMethods = false)
class FinishedSpans {

    /** The spans finished so far, in every test's application. */
    static final List<FinishedSpan> ALL = new CopyOnWriteArrayList<>();

    @Bean
    SpanHandler braveSpans() {
        return new SpanHandler() {
            @Override
            public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                ALL.add(new FinishedSpan(span.traceId(), span.parentId(), Map.copyOf(span.tags()),
                        span.error() != null || span.tag("error") != null));
                return true;
            }
        };
    }

    @Bean
    SpanProcessor openTelemetrySpans() {
        return new SpanProcessor() {
            @Override
            public void onStart(Context parent, ReadWriteSpan span) {
            }

            @Override
            public boolean isStartRequired() {
                return false;
            }

            @Override
            public void onEnd(ReadableSpan span) {
                SpanData data = span.toSpanData();
                Map<String, String> tags = new HashMap<>();
                data.getAttributes().forEach((key, value) -> tags.put(key.getKey(), String.valueOf(value)));
                ALL.add(new FinishedSpan(data.getTraceId(),
                        data.getParentSpanContext().isValid() ? data.getParentSpanId() : null, tags,
                        data.getStatus().getStatusCode() == StatusCode.ERROR));
            }

            @Override
            public boolean isEndRequired() {
                return true;
            }
        };
    }
}
