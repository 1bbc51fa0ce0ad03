package io.github.resiliencestarter.spring.aop;

import java.lang.reflect.Method;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * The shape every annotation interceptor shares: look up the method's cached operation, run the
 * call through it, and hand a failure to the operation's fallback when it has one.
 *
 * @param <O> the resolved operation type
 */
public abstract class OperationInterceptor<O> implements MethodInterceptor {

    @Override
    public final @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        // the raw class: the cache resolves a CGLIB subclass to its user class once, not on every call
        O operation = operation(invocation.getMethod(), target != null ? target.getClass() : null);
        if (operation == null) {
            return invocation.proceed();
        }
        try {
            return invoke(operation, invocation);
        } catch (Throwable ex) {
            FallbackMethod fallback = fallback(operation);
            if (fallback != null) {
                return fallback.invoke(target, invocation.getArguments(), ex);
            }
            throw ex;
        }
    }

    /**
     * The cached operation of a method.
     *
     * @param method the invoked method
     * @param targetClass the bean's class, or {@code null}
     * @return the operation, or {@code null} when the method is not annotated
     */
    protected abstract @Nullable O operation(Method method, @Nullable Class<?> targetClass);

    /**
     * Runs the call through the operation.
     *
     * @param operation the operation
     * @param invocation the call
     * @return the call's result
     * @throws Throwable whatever the call or the operation threw
     */
    protected abstract @Nullable Object invoke(O operation, MethodInvocation invocation) throws Throwable;

    /**
     * The operation's fallback.
     *
     * @param operation the operation
     * @return the fallback, or {@code null}
     */
    protected abstract @Nullable FallbackMethod fallback(O operation);
}
