package io.github.resiliencestarter.context;

import org.jspecify.annotations.Nullable;

/**
 * The lifetime of one installed {@link TraceContext}. Closing it restores the snapshot (and the MDC
 * trace id) that was current when it was opened. Close it on the thread that opened it, in a
 * {@code try}-with-resources block; closing twice has no further effect.
 */
public final class TraceScope implements AutoCloseable {

    /** Marks a scope that did not change the MDC, so closing it leaves the MDC alone. */
    static final String MDC_UNTOUCHED = new String("mdc-untouched");

    private final @Nullable TraceContext previous;

    private final @Nullable String previousMdcTraceId;

    private boolean closed;

    TraceScope(@Nullable TraceContext previous, @Nullable String previousMdcTraceId) {
        this.previous = previous;
        this.previousMdcTraceId = previousMdcTraceId;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            TraceContextHolder.restore(previous, previousMdcTraceId);
        }
    }
}
