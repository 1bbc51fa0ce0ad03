package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.core.CheckedCallable;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.support.AopUtils;

/**
 * Applies {@code @Retry}: runs each attempt on a fresh clone of the invocation, so the inner
 * interceptors (a transaction, for instance) run again for every attempt, and hands the final
 * failure to the fallback.
 */
public class RetryInterceptor implements MethodInterceptor {

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
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass = target != null ? AopUtils.getTargetClass(target) : null;
        RetryOperation operation = source.get(invocation.getMethod(), targetClass);
        if (operation == null) {
            return invocation.proceed();
        }
        CheckedCallable<Object> attempt = invocation instanceof ProxyMethodInvocation proxied
                ? () -> proxied.invocableClone().proceed() : invocation::proceed;
        try {
            return operation.retrier().call(attempt);
        } catch (Throwable ex) {
            FallbackMethod fallback = operation.fallback();
            if (fallback != null) {
                return fallback.invoke(target, invocation.getArguments(), ex);
            }
            throw ex;
        }
    }
}
