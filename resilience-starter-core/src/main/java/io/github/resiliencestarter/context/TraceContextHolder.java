package io.github.resiliencestarter.context;

import com.alibaba.ttl.TransmittableThreadLocal;
import io.github.resiliencestarter.core.CheckedCallable;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * Holds the current {@link TraceContext} for the thread, transmitted by TTL
 * (TransmittableThreadLocal) to every task it wraps.
 *
 * <p>Contexts are installed only through {@link #open(TraceContext)}, whose {@link TraceScope}
 * puts the previous snapshot back when closed, so nothing leaks into the next use of a pooled
 * thread. The holder keeps the SLF4J MDC key {@value #MDC_TRACE_ID} in step with the trace id.
 *
 * <p>The value lives in a plain {@link ThreadLocal} registered with TTL's {@code Transmitter} as
 * a transmittee, so {@code TtlRunnable}, {@code TtlExecutors} and the TTL agent capture, replay
 * and restore it exactly as they would a {@code TransmittableThreadLocal}. A
 * {@code TransmittableThreadLocal} itself would also look up its per-thread registry (a
 * {@code WeakHashMap}) on every read and write: about 10 ns each, paid several times per
 * annotated call (docs/internals/benchmarks.md).
 *
 * <p>Two choices make pooled threads safe: a thread created while a request is active does
 * <em>not</em> inherit its context, and the context plus the MDC travel only with tasks wrapped by
 * TTL, which restore the worker afterwards.
 */
public final class TraceContextHolder {

    /** The MDC key that carries the trace id into every log line. */
    public static final String MDC_TRACE_ID = "traceId";

    private static final ThreadLocal<TraceContext> CURRENT = new ThreadLocal<>();

    static {
        TransmittableThreadLocal.Transmitter.registerTransmittee(new ContextTransmittee());
        TransmittableThreadLocal.Transmitter.registerTransmittee(new MdcTransmittee());
    }

    private TraceContextHolder() {
    }

    /**
     * The current context, never {@code null}.
     *
     * @return the current snapshot, or {@link TraceContext#empty()} outside any scope
     */
    public static TraceContext current() {
        TraceContext context = CURRENT.get();
        return context != null ? context : TraceContext.empty();
    }

    /**
     * Installs {@code context} as current until the returned scope is closed.
     *
     * @param context the snapshot to install
     * @return the scope that restores the previous snapshot
     */
    public static TraceScope open(TraceContext context) {
        TraceContext previous = CURRENT.get();
        CURRENT.set(context);
        String traceId = context.traceId();
        if (previous != null && previous.traceId() == traceId) {
            // a nested scope of the same trace (retry attempt, timeout): the MDC is already right
            return new TraceScope(previous, TraceScope.MDC_UNTOUCHED);
        }
        String previousMdc = MDC.get(MDC_TRACE_ID);
        if (traceId != null && !traceId.equals(previousMdc)) {
            MDC.put(MDC_TRACE_ID, traceId);
        }
        return new TraceScope(previous, previousMdc);
    }

    /**
     * Runs {@code work} with {@code context} installed, and puts the previous context back when it
     * ends, as {@code try (TraceScope scope = open(context))} does. A context of the trace already
     * current (a retry attempt, a timeout's narrowed deadline) leaves the MDC as it is and needs
     * no scope object, so none is made: the hot paths nest such contexts on every call.
     *
     * @param context the snapshot to install
     * @param work the work to run inside it
     * @param <T> the result type
     * @return the work's result
     * @throws Throwable whatever the work threw
     */
    public static <T extends @Nullable Object> T callWithin(TraceContext context, CheckedCallable<T> work)
            throws Throwable {
        TraceContext previous = CURRENT.get();
        if (previous == null || previous.traceId() != context.traceId()) {
            try (TraceScope scope = open(context)) {
                return work.call();
            }
        }
        CURRENT.set(context);
        try {
            return work.call();
        } finally {
            CURRENT.set(previous);
        }
    }

    static void restore(@Nullable TraceContext previous, @Nullable String previousMdc) {
        // the empty context rather than remove(): the thread's map entry is reused by the next scope
        CURRENT.set(previous != null ? previous : TraceContext.empty());
        if (previousMdc == TraceScope.MDC_UNTOUCHED) {
            return;
        }
        // nested scopes usually keep the trace id: skip the MDC write (it copies the map in Logback)
        String current = MDC.get(MDC_TRACE_ID);
        if (previousMdc == null) {
            if (current != null) {
                MDC.remove(MDC_TRACE_ID);
            }
        } else if (!previousMdc.equals(current)) {
            MDC.put(MDC_TRACE_ID, previousMdc);
        }
    }

    /** Carries the current context with every TTL-wrapped task, and restores the worker's own afterwards. */
    private static final class ContextTransmittee
            implements TransmittableThreadLocal.Transmitter.Transmittee<@Nullable TraceContext, @Nullable TraceContext> {

        @Override
        public @Nullable TraceContext capture() {
            // an immutable snapshot: every worker that replays it may share it
            return CURRENT.get();
        }

        @Override
        public @Nullable TraceContext replay(@Nullable TraceContext captured) {
            TraceContext backup = CURRENT.get();
            setOrRemove(captured);
            return backup;
        }

        @Override
        public @Nullable TraceContext clear() {
            return replay(null);
        }

        @Override
        public void restore(@Nullable TraceContext backup) {
            setOrRemove(backup);
        }

        private static void setOrRemove(@Nullable TraceContext context) {
            if (context == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(context);
            }
        }
    }

    /** Carries the whole MDC with every TTL-wrapped task, and restores the worker's own afterwards. */
    private static final class MdcTransmittee
            implements TransmittableThreadLocal.Transmitter.Transmittee<
                    @Nullable Map<String, String>, @Nullable Map<String, String>> {

        @Override
        public @Nullable Map<String, String> capture() {
            return MDC.getCopyOfContextMap();
        }

        @Override
        public @Nullable Map<String, String> replay(@Nullable Map<String, String> captured) {
            Map<String, String> backup = MDC.getCopyOfContextMap();
            setOrClear(captured);
            return backup;
        }

        @Override
        public @Nullable Map<String, String> clear() {
            return replay(null);
        }

        @Override
        public void restore(@Nullable Map<String, String> backup) {
            setOrClear(backup);
        }

        private static void setOrClear(@Nullable Map<String, String> map) {
            if (map == null || map.isEmpty()) {
                MDC.clear();
            } else {
                MDC.setContextMap(map);
            }
        }
    }
}
