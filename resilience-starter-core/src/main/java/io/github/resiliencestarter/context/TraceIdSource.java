package io.github.resiliencestarter.context;

import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Where a request's trace id comes from when something other than the starter owns it: the
 * tracer's current span. Entry points ask it first, so that a request has one trace id, the
 * tracer's; without one they read the starter's headers or make a new id.
 */
@FunctionalInterface
public interface TraceIdSource extends Supplier<@Nullable String> {

    /**
     * The current trace id.
     *
     * @return the id, or {@code null} when there is none now (no tracer, no current span)
     */
    @Override
    @Nullable String get();
}
