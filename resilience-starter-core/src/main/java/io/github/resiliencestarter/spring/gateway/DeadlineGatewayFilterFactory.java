package io.github.resiliencestarter.spring.gateway;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.spring.http.OutboundHeaders;
import io.github.resiliencestarter.spring.web.ResilienceProblems;
import io.github.resiliencestarter.spring.webflux.ReactiveProblemWriter;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.http.ProblemDetail;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The {@code Deadline} route filter: the request goes downstream with the trace id and the
 * remaining budget less the margin ({@code X-Timeout-Budget-Ms}), and is cut off when the budget
 * runs out, answered 504 at the edge; a request with no budget beyond the margin is answered 504
 * without being forwarded. The budget is the one the inbound filter read from the client, capped
 * by {@code resilience.trace.max-inbound-budget}; a client that sent none gets the route's own
 * ({@code Deadline=3s}), or no deadline when the route names none.
 */
public class DeadlineGatewayFilterFactory extends AbstractGatewayFilterFactory<DeadlineGatewayFilterFactory.Config> {

    private final Duration margin;

    private final String problemTypeBase;

    /**
     * Creates the factory.
     *
     * @param margin time kept back from the budget sent downstream
     * @param problemTypeBase what problem types begin with
     */
    public DeadlineGatewayFilterFactory(Duration margin, String problemTypeBase) {
        super(Config.class);
        this.margin = margin;
        this.problemTypeBase = problemTypeBase;
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("budget");
    }

    @Override
    public GatewayFilter apply(Config config) {
        Duration routeBudget = config.getBudget();
        return (exchange, chain) -> Mono.deferContextual(reactor -> {
            TraceContext context = GatewayTraceContexts.of(reactor);
            if (context.deadline() == null && routeBudget != null) {
                context = context.withDeadline(Deadline.after(routeBudget));
            }
            Deadline deadline = context.deadline();
            ServerHttpRequest.Builder forwarded = exchange.getRequest().mutate();
            try {
                OutboundHeaders.apply(context, margin.toMillis(), exchange.getRequest().getMethod() + " "
                        + exchange.getRequest().getPath(), header -> false,
                        (name, value) -> forwarded.headers(headers -> headers.set(name, value)));
            } catch (DeadlineExceededException spent) {
                return deadlineExceeded(exchange, "The time budget was spent before the gateway could forward "
                        + "the request");
            }
            Mono<Void> forwarding = chain.filter(exchange.mutate().request(forwarded.build()).build());
            if (deadline == null) {
                return forwarding;
            }
            return forwarding.timeout(Duration.ofNanos(Math.max(0, deadline.remainingNanos())))
                    .onErrorResume(TimeoutException.class, late -> exchange.getResponse().isCommitted()
                            ? Mono.error(late)
                            : deadlineExceeded(exchange, "The service behind the gateway did not answer within "
                                    + "the time budget"));
        });
    }

    private Mono<Void> deadlineExceeded(ServerWebExchange exchange, String detail) {
        ProblemDetail problem = ResilienceProblems.deadlineExceeded(detail);
        return ReactiveProblemWriter.write(exchange, problem, problemTypeBase);
    }

    /** A route's settings: {@code Deadline=3s}, or {@code Deadline} alone. */
    public static class Config {

        private @Nullable Duration budget;

        /**
         * The budget of a request whose client sent none.
         *
         * @return the budget, or {@code null} for none
         */
        public @Nullable Duration getBudget() {
            return budget;
        }

        /**
         * Sets the budget of a request whose client sent none.
         *
         * @param budget the budget
         */
        public void setBudget(@Nullable Duration budget) {
            this.budget = budget;
        }
    }
}
