package io.github.resiliencestarter.micrometer;

import io.github.resiliencestarter.core.ContextPropagator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;

/**
 * Carries what Micrometer context-propagation knows of to the starter's workers (OFFLOAD, hedges,
 * settlement, async continuations): the current {@code Observation} above all, whose scope brings
 * back the tracer's current span and its MDC entries, so a call made on a worker continues the
 * request's trace. The starter's own trace context is left out: the worker opens a narrowed copy of
 * it (its deadline, its attempt) and must not have the caller's put back over that.
 */
public final class ContextSnapshotPropagator implements ContextPropagator {

    private final ContextSnapshotFactory snapshots;

    /** Creates the propagator over the global registry. */
    public ContextSnapshotPropagator() {
        this(ContextRegistry.getInstance());
    }

    /**
     * Creates the propagator over {@code registry}.
     *
     * @param registry the accessors to capture
     */
    public ContextSnapshotPropagator(ContextRegistry registry) {
        this.snapshots = ContextSnapshotFactory.builder().contextRegistry(registry)
                .captureKeyPredicate(key -> !TraceContextAccessor.KEY.equals(key)).build();
    }

    @Override
    public Restorer capture() {
        ContextSnapshot snapshot = snapshots.captureAll();
        return () -> snapshot.setThreadLocals()::close;
    }
}
