package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.core.CheckedCallable;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;

/**
 * Applies {@code @Retry}: runs each attempt on a fresh clone of the invocation, so the inner
 * interceptors (a transaction, for instance) run again for every attempt, and hands the final
 * failure to the fallback.
 */
public class RetryInterceptor extends OperationInterceptor<RetryOperation> {

    private final RetryOperationSource source;

    /**
     * Creates the interceptor.
     *
     * @param source the per-method settings
     */
    public RetryInterceptor(RetryOperationSource source) {
        this.source = source;
    }

    @Override
    protected @Nullable RetryOperation operation(Method method, @Nullable Class<?> targetClass) {
        return source.get(method, targetClass);
    }

    @Override
    protected @Nullable Object invoke(RetryOperation operation, MethodInvocation invocation) throws Throwable {
        if (operation.kind() == ResultKind.MONO) {
            // each attempt invokes the method again and subscribes to its new Mono
            return ReactorResults.perSubscription(() -> AsyncResults.withFallback(
                    operation.retrier().callAsync(() -> ReactorResults.subscribe(invocation)), operation.fallback(),
                    invocation.getThis(), invocation.getArguments()));
        }
        if (operation.kind() == ResultKind.STAGE) {
            // each attempt re-invokes the method on a fresh clone: a new stage per attempt
            CheckedCallable<CompletionStage<Object>> attempt = invocation instanceof ProxyMethodInvocation proxied
                    ? () -> AsyncResults.proceed(proxied.invocableClone()) : () -> AsyncResults.proceed(invocation);
            return AsyncResults.withFallback(operation.retrier().callAsync(attempt), operation.fallback(),
                    invocation.getThis(), invocation.getArguments());
        }
        CheckedCallable<Object> attempt = invocation instanceof ProxyMethodInvocation proxied
                ? () -> proxied.invocableClone().proceed() : invocation::proceed;
        return operation.retrier().call(attempt);
    }

    @Override
    protected @Nullable FallbackMethod fallback(RetryOperation operation) {
        return operation.fallback();
    }
}
