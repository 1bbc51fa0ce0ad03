package io.github.resiliencestarter.tracing;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
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

    private static final Object FINISHED = new Object();

    private static void finished(FinishedSpan span) {
        synchronized (FINISHED) {
            ALL.add(span);
            FINISHED.notifyAll();
        }
    }

    /**
     * The first finished span that matches, waiting for it: a server span may end after its
     * client has read the answer.
     *
     * @param wanted what the span is
     * @return the span
     * @throws InterruptedException when interrupted while waiting
     * @throws AssertionError when no such span finishes within 10 seconds
     */
    static FinishedSpan await(Predicate<FinishedSpan> wanted) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        synchronized (FINISHED) {
            while (true) {
                for (FinishedSpan span : ALL) {
                    if (wanted.test(span)) {
                        return span;
                    }
                }
                long left = until - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no such span finished within 10 s; finished: " + ALL);
                }
                TimeUnit.NANOSECONDS.timedWait(FINISHED, left);
            }
        }
    }

    @Bean
    SpanHandler braveSpans() {
        return new SpanHandler() {
            @Override
            public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                List<String> events = new ArrayList<>();
                span.forEachAnnotation((names, timestamp, value) -> names.add(value), events);
                finished(new FinishedSpan(span.traceId(), span.id(), span.parentId(), Map.copyOf(span.tags()),
                        span.error() != null || span.tag("error") != null, events));
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
                finished(new FinishedSpan(data.getTraceId(), data.getSpanId(),
                        data.getParentSpanContext().isValid() ? data.getParentSpanId() : null, tags,
                        data.getStatus().getStatusCode() == StatusCode.ERROR,
                        data.getEvents().stream().map(EventData::getName).toList()));
            }

            @Override
            public boolean isEndRequired() {
                return true;
            }
        };
    }
}
