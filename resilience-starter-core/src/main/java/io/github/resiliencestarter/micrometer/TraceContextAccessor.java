package io.github.resiliencestarter.micrometer;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.micrometer.context.ThreadLocalAccessor;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;

/**
 * Lets Micrometer context-propagation (Reactor, Spring's {@code ContextPropagatingTaskDecorator},
 * observation scopes) carry the trace context. Values are installed as scopes, so restoring puts
 * back exactly what was there, MDC included.
 */
public class TraceContextAccessor implements ThreadLocalAccessor<TraceContext> {

    /** The context-propagation key. */
    public static final String KEY = "resilience.trace-context";

    private static final ThreadLocal<Deque<TraceScope>> SCOPES = ThreadLocal.withInitial(ArrayDeque::new);

    @Override
    public Object key() {
        return KEY;
    }

    @Override
    public @Nullable TraceContext getValue() {
        TraceContext current = TraceContextHolder.current();
        return current == TraceContext.empty() ? null : current;
    }

    @Override
    public void setValue(TraceContext value) {
        SCOPES.get().push(TraceContextHolder.open(value));
    }

    @Override
    public void setValue() {
        SCOPES.get().push(TraceContextHolder.open(TraceContext.empty()));
    }

    @Override
    public void restore(TraceContext previousValue) {
        closeTop();
    }

    @Override
    public void restore() {
        closeTop();
    }

    private static void closeTop() {
        Deque<TraceScope> scopes = SCOPES.get();
        TraceScope top = scopes.poll();
        if (top != null) {
            top.close();
        }
        if (scopes.isEmpty()) {
            SCOPES.remove();
        }
    }
}
