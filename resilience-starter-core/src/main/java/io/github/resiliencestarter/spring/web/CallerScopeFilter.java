package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Records who the caller is in the request's trace context, once authentication has run (after
 * Spring Security's filter chain, which exposes the authenticated user as the request's
 * principal; an anonymous one as none). The scope then travels with the trace context to every
 * thread the context reaches (OFFLOAD workers, TTL-wrapped and decorated executors), so an
 * idempotency key is scoped to its caller there too, without any request attributes.
 */
public class CallerScopeFilter extends OncePerRequestFilter implements Ordered {

    /** Default order: right after Spring Security's filter chain (Boot registers it at -100). */
    public static final int DEFAULT_ORDER = -99;

    @Override
    public int getOrder() {
        return DEFAULT_ORDER;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Principal principal = request.getUserPrincipal();
        String scope = principal != null && principal.getName() != null ? principal.getName() : "";
        try (TraceScope opened = TraceContextHolder.open(TraceContextHolder.current().withCallerScope(scope))) {
            chain.doFilter(request, response);
        }
    }
}
