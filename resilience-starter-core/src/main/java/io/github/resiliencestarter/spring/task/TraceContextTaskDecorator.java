package io.github.resiliencestarter.spring.task;

import io.github.resiliencestarter.core.ContextPropagator;
import org.springframework.core.task.TaskDecorator;

/**
 * Wraps tasks so they run with the submitter's trace context, other TTL values, MDC and the
 * thread-bound state of the given propagators (request attributes, security context), and leave
 * the worker as they found it. Boot applies it to its task executor (and so to {@code @Async}).
 */
public class TraceContextTaskDecorator implements TaskDecorator {

    private final ContextPropagator propagator;

    /** Creates a decorator that carries TTL values and the MDC only. */
    public TraceContextTaskDecorator() {
        this(ContextPropagator.NONE);
    }

    /**
     * Creates a decorator that also carries what {@code propagator} captures.
     *
     * @param propagator captures thread-bound state on the submitting thread
     */
    public TraceContextTaskDecorator(ContextPropagator propagator) {
        this.propagator = propagator;
    }

    @Override
    public Runnable decorate(Runnable runnable) {
        return propagator.carry(runnable);
    }
}
