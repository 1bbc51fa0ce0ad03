package io.github.resiliencestarter.micrometer;

import io.github.resiliencestarter.context.TraceIdSource;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The trace id of the Micrometer {@link Tracer}'s current span: where a tracer runs, the request's
 * trace id is the tracer's (in the MDC, in {@code X-Trace-Id}, downstream), so one request has one
 * id. The tracer is looked up on each read, so the tracer's own configuration may come later than
 * this one's.
 */
public final class TracerTraceIds implements TraceIdSource {

    private final Supplier<@Nullable Tracer> tracer;

    /**
     * Creates the reader.
     *
     * @param tracer the application's tracer, or {@code null} while it has none
     */
    public TracerTraceIds(Supplier<@Nullable Tracer> tracer) {
        this.tracer = tracer;
    }

    /**
     * The current span's trace id.
     *
     * @return the id, or {@code null} without a tracer or outside a span
     */
    @Override
    public @Nullable String get() {
        Tracer current = tracer.get();
        if (current == null) {
            return null;
        }
        TraceContext context = current.currentTraceContext().context();
        return context == null ? null : context.traceId();
    }
}
