package io.github.resiliencestarter.spring.webflux;

import java.security.Principal;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Records who the caller is, for idempotency keys scoped per caller: runs after Spring Security's
 * filter chain (which authenticates the exchange and exposes the principal through
 * {@link ServerWebExchange#getPrincipal()}), and before the handler. An anonymous caller's scope
 * is empty.
 */
public class CallerScopeWebFilter implements WebFilter, Ordered {

    /** Default order: after Spring Security's {@code WebFilterChainProxy} (order -100). */
    public static final int DEFAULT_ORDER = 0;

    @Override
    public int getOrder() {
        return DEFAULT_ORDER;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return exchange.getPrincipal().map(CallerScopeWebFilter::name).defaultIfEmpty("")
                .flatMap(scope -> chain.filter(exchange).contextWrite(reactor -> reactor.put(ReactiveRequest.KEY,
                        new ReactiveRequest(exchange, scope))));
    }

    private static String name(Principal principal) {
        return SecurityPrincipals.isAnonymous(principal) ? "" : principal.getName();
    }
}
