package io.github.resiliencestarter.spring.aop;

import java.lang.reflect.Method;
import java.util.List;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.DefaultAdvisorChainFactory;
import org.springframework.aop.framework.ReflectiveMethodInvocation;

/**
 * A retry attempt after the first one: the interceptors that follow {@code @Retry}'s own in the
 * proxy's chain (a transaction, for instance), then the target method, the same as an
 * {@code invocableClone()} of the original invocation would run. The first attempt proceeds on
 * the original invocation itself, so a call that succeeds at once copies nothing; this chain is
 * looked up only when a retry happens.
 */
final class RetryAttemptInvocation extends ReflectiveMethodInvocation {

    private RetryAttemptInvocation(Object proxy, @Nullable Object target, Method method, Object[] arguments,
            @Nullable Class<?> targetClass, List<Object> chain) {
        super(proxy, target, method, arguments, targetClass, chain);
    }

    /**
     * Whether attempts after the first can be rebuilt for this call: the proxy exposes its
     * configuration (it is not opaque).
     *
     * @param invocation the original call
     * @return {@code true} when {@link #after} can rebuild the chain
     */
    static boolean canRebuild(ProxyMethodInvocation invocation) {
        return invocation.getProxy() instanceof Advised;
    }

    /**
     * A fresh invocation of what follows {@code self} in the proxy's chain.
     *
     * @param self the interceptor the attempts belong to
     * @param original the original call, already proceeded once
     * @param arguments the arguments the call arrived with
     * @return the attempt's invocation
     * @throws IllegalStateException when {@code self} is not in the proxy's chain for the method
     */
    static ReflectiveMethodInvocation after(MethodInterceptor self, ProxyMethodInvocation original,
            Object[] arguments) {
        Advised advised = (Advised) original.getProxy();
        Object target = original.getThis();
        Class<?> targetClass = target != null ? target.getClass() : null;
        List<Object> chain = DefaultAdvisorChainFactory.INSTANCE.getInterceptorsAndDynamicInterceptionAdvice(advised,
                original.getMethod(), targetClass);
        for (int i = 0; i < chain.size(); i++) {
            if (ResilienceAnnotationAdvisor.runs(chain.get(i), self)) {
                RetryAttemptInvocation attempt = new RetryAttemptInvocation(original.getProxy(), target,
                        original.getMethod(), arguments, targetClass, chain.subList(i + 1, chain.size()));
                if (original instanceof ReflectiveMethodInvocation reflective) {
                    // attributes set by advice in front of ours (a bean name, for instance) stay visible
                    attempt.getUserAttributes().putAll(reflective.getUserAttributes());
                }
                return attempt;
            }
        }
        throw new IllegalStateException("@Retry's interceptor is not in the proxy's chain for "
                + original.getMethod() + "; cannot repeat the call");
    }
}
