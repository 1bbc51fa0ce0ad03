package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.circuit.CircuitGuard;
import java.lang.reflect.Method;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Applies {@code @CircuitBreaker}: one call through the breaker per invocation, so inside
 * {@code @Retry} (which re-invokes the inner chain per attempt) each attempt is one breaker call.
 * A {@code Mono} is admitted per subscription and judged when it completes; a
 * {@code CompletionStage} when it completes; a blocking call when it returns or throws.
 */
public class CircuitBreakerInterceptor extends OperationInterceptor<CircuitBreakerOperation> {

    private final CircuitBreakerOperationSource source;

    /**
     * Creates the interceptor.
     *
     * @param source the per-method settings
     */
    public CircuitBreakerInterceptor(CircuitBreakerOperationSource source) {
        this.source = source;
    }

    @Override
    protected AnnotatedOperationSource<?, CircuitBreakerOperation> source() {
        return source;
    }

    @Override
    protected @Nullable Object invoke(CircuitBreakerOperation operation, MethodInvocation invocation)
            throws Throwable {
        CircuitGuard guard = operation.guard();
        if (operation.kind() == ResultKind.MONO) {
            return ReactorResults.perSubscription(() -> AsyncResults.withFallback(
                    guard.callAsync(() -> ReactorResults.subscribe(invocation)), operation.fallback(), invocation));
        }
        if (operation.kind().completesAStage()) {
            return AsyncResults.withFallback(guard.callAsync(() -> AsyncResults.proceed(invocation)),
                    operation.fallback(), invocation);
        }
        return guard.call(proceeding(invocation));
    }

    @Override
    protected @Nullable FallbackMethod fallback(CircuitBreakerOperation operation) {
        return operation.fallback();
    }
}
