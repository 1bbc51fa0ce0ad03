package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;

/**
 * Resolves {@code @CircuitBreaker} per method: the named breaker from the registry (its settings
 * follow live tuning inside the breaker, so the operation never changes), the fallback and the
 * result kind. Resolved once per method and cached.
 */
public class CircuitBreakerOperationSource extends AnnotatedOperationSource<CircuitBreaker, CircuitBreakerOperation> {

    private final CircuitRegistry registry;

    /**
     * Creates the source.
     *
     * @param registry the breakers by name
     */
    public CircuitBreakerOperationSource(CircuitRegistry registry) {
        super(CircuitBreaker.class);
        this.registry = registry;
    }

    /**
     * The breakers.
     *
     * @return the registry
     */
    public CircuitRegistry registry() {
        return registry;
    }

    @Override
    protected CircuitBreakerOperation build(CircuitBreaker annotation, Method method, @Nullable Class<?> targetClass) {
        String name = AnnotatedMethods.operationName(method, targetClass);
        String described = AnnotatedMethods.describe(method, targetClass);
        String breaker = annotation.name().isEmpty() ? name : annotation.name();
        Class<?> owner = targetClass != null ? targetClass : method.getDeclaringClass();
        FallbackMethod fallback = FallbackMethod.resolve("@CircuitBreaker", annotation.fallbackMethod(), method, owner);
        return new CircuitBreakerOperation(name, registry.guard(breaker), fallback,
                ResultKind.governable(method, "@CircuitBreaker", described));
    }
}
