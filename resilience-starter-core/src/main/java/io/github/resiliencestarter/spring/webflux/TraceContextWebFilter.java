package io.github.resiliencestarter.spring.webflux;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.micrometer.TraceContextAccessor;
import io.github.resiliencestarter.spring.web.InboundTraceContext;
import io.github.resiliencestarter.spring.web.ResilienceProblems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The reactive counterpart of the servlet {@code TraceContextFilter}, first in the chain: reads the
 * trace id and budget ({@link InboundTraceContext}), echoes {@code X-Trace-Id}, answers a spent
 * budget with a 504 problem without running the handler, and puts the trace context and the
 * request into Reactor's context, from where automatic context propagation restores them on
 * whatever thread the request's operators and handler run.
 */
public class TraceContextWebFilter implements WebFilter, Ordered {

    /** Default order: before security and everything else. */
    public static final int DEFAULT_ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

    private static final Logger log = LoggerFactory.getLogger(TraceContextWebFilter.class);

    private final InboundTraceContext inbound;

    private int order = DEFAULT_ORDER;

    private String problemTypeBase = ResilienceProblems.TYPE_BASE;

    /**
     * Creates the filter.
     *
     * @param inbound reads the request's context from its headers
     */
    public TraceContextWebFilter(InboundTraceContext inbound) {
        this.inbound = inbound;
    }

    /**
     * Sets what the types of the problems this filter answers begin with
     * ({@code resilience.problems.type-base}).
     *
     * @param problemTypeBase an absolute URI, e.g. a documentation URL ending with {@code /}
     */
    public void setProblemTypeBase(String problemTypeBase) {
        this.problemTypeBase = problemTypeBase;
    }

    /**
     * Sets the filter's order.
     *
     * @param order the order
     */
    public void setOrder(int order) {
        this.order = order;
    }

    @Override
    public int getOrder() {
        return order;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        HttpHeaders headers = exchange.getRequest().getHeaders();
        TraceContext context = inbound.read(headers::getFirst);
        exchange.getResponse().getHeaders().set(ResilienceHeaders.TRACE_ID, context.traceId());
        if (context.isExpired()) {
            log.debug("Inbound budget already spent; answering 504 without running the handler");
            return ReactiveProblemWriter.write(exchange, ResilienceProblems.deadlineExceeded(
                    "The caller's time budget was already spent when the request arrived"), problemTypeBase);
        }
        return chain.filter(exchange).contextWrite(reactor -> reactor.put(TraceContextAccessor.KEY, context)
                .put(ReactiveRequest.KEY, new ReactiveRequest(exchange, null)));
    }
}
