package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.circuit.CircuitGuard;
import org.jspecify.annotations.Nullable;

/**
 * The resolved {@code @CircuitBreaker} of one method.
 *
 * @param name the operation name ({@code SimpleClassName.method})
 * @param guard the breaker, shared with every method of the same breaker name
 * @param fallback the fallback, or {@code null}
 * @param kind how the method returns its result
 */
public record CircuitBreakerOperation(String name, CircuitGuard guard, @Nullable FallbackMethod fallback,
        ResultKind kind) {
}
