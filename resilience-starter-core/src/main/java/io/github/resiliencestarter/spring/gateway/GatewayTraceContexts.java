package io.github.resiliencestarter.spring.gateway;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.micrometer.TraceContextAccessor;
import reactor.util.context.ContextView;

/** The request's trace context, as the inbound filter put it into Reactor's context. */
final class GatewayTraceContexts {

    private GatewayTraceContexts() {
    }

    /**
     * The trace context of the request a filter runs for.
     *
     * @param reactor the subscriber's context
     * @return the context, empty when the inbound filter did not run
     */
    static TraceContext of(ContextView reactor) {
        return reactor.<TraceContext>getOrEmpty(TraceContextAccessor.KEY).orElseGet(TraceContext::empty);
    }
}
