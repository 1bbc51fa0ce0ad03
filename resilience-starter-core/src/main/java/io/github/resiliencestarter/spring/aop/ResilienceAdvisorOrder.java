package io.github.resiliencestarter.spring.aop;

import org.springframework.core.Ordered;

/**
 * Advisor orders that fix the nesting, outermost first: {@code @Timeout} → {@code @Idempotent} →
 * {@code @Retry} → {@code @CircuitBreaker} → {@code @Transactional} (Spring's default order,
 * {@link Ordered#LOWEST_PRECEDENCE}) → the method. So the deadline bounds everything, the
 * idempotency claim is held across retries, each retry attempt is one call through the breaker,
 * and each runs in a fresh transaction.
 */
public final class ResilienceAdvisorOrder {

    /** Order of the {@code @Timeout} advisor. */
    public static final int TIMEOUT = Ordered.LOWEST_PRECEDENCE - 300;

    /** Order of the {@code @Idempotent} advisor. */
    public static final int IDEMPOTENT = Ordered.LOWEST_PRECEDENCE - 200;

    /** Order of the {@code @Retry} advisor. */
    public static final int RETRY = Ordered.LOWEST_PRECEDENCE - 100;

    /** Order of the {@code @CircuitBreaker} advisor: per attempt, inside {@code @Retry}. */
    public static final int CIRCUIT_BREAKER = Ordered.LOWEST_PRECEDENCE - 50;

    /**
     * Order of the fault injector of {@code resilience.chaos} (docs/chaos.md): innermost of the
     * starter's, so every policy sees an injected fault as the method's own.
     */
    public static final int CHAOS = Ordered.LOWEST_PRECEDENCE - 25;

    private ResilienceAdvisorOrder() {
    }
}
