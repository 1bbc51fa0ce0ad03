package io.github.resiliencestarter.spring.security;

import io.github.resiliencestarter.core.ContextPropagator;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;

/**
 * Carries Spring Security's {@link SecurityContext} from the request thread to the workers the
 * starter runs code on (OFFLOAD timeout workers, task executors behind {@code @Async}), so the
 * business method, method security and the idempotency scope see the caller's authentication
 * there too. The worker's own context is put back afterwards, so nothing leaks into the next task.
 */
public class SecurityContextPropagator implements ContextPropagator {

    private final SecurityContextHolderStrategy strategy;

    /** Creates a propagator on Spring Security's global holder strategy. */
    public SecurityContextPropagator() {
        this(SecurityContextHolder.getContextHolderStrategy());
    }

    /**
     * Creates a propagator on a given strategy.
     *
     * @param strategy where the security context lives
     */
    public SecurityContextPropagator(SecurityContextHolderStrategy strategy) {
        this.strategy = strategy;
    }

    @Override
    public Restorer capture() {
        SecurityContext captured = strategy.getContext();
        return () -> {
            SecurityContext previous = strategy.getContext();
            strategy.setContext(captured);
            return () -> {
                if (previous.getAuthentication() == null) {
                    // leave a pooled worker as clean as it was: no empty context object behind
                    strategy.clearContext();
                } else {
                    strategy.setContext(previous);
                }
            };
        };
    }
}
