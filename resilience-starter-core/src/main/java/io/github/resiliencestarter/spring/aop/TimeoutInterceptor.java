package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.timeout.TimeoutMode;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Applies {@code @Timeout}: looks up the method's cached operation, refuses OFFLOAD inside a
 * caller's transaction, runs the call through the guard and hands failures to the fallback.
 */
public class TimeoutInterceptor implements MethodInterceptor {

    private static final boolean TX_PRESENT = ClassUtils.isPresent(
            "org.springframework.transaction.support.TransactionSynchronizationManager",
            TimeoutInterceptor.class.getClassLoader());

    private final TimeoutOperationSource source;

    /**
     * Creates the interceptor.
     *
     * @param source the per-method settings
     */
    public TimeoutInterceptor(TimeoutOperationSource source) {
        this.source = source;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass = target != null ? AopUtils.getTargetClass(target) : null;
        TimeoutOperation operation = source.get(invocation.getMethod(), targetClass);
        if (operation == null) {
            return invocation.proceed();
        }
        if (operation.guard().config().mode() == TimeoutMode.OFFLOAD && TX_PRESENT
                && TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new OffloadInTransactionException(operation.name());
        }
        try {
            return operation.guard().call(invocation::proceed);
        } catch (Throwable ex) {
            FallbackMethod fallback = operation.fallback();
            if (fallback != null) {
                return fallback.invoke(target, invocation.getArguments(), ex);
            }
            throw ex;
        }
    }
}
