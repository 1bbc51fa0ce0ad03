package io.github.resiliencestarter.spring.chaos;

import io.github.resiliencestarter.chaos.FaultInjector;
import io.github.resiliencestarter.spring.aop.AnnotatedMethods;
import io.github.resiliencestarter.spring.aop.ResilienceAdvisorOrder;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.support.StaticMethodMatcherPointcutAdvisor;

/**
 * Puts the fault injector in front of each method a fault names, inside every policy of the
 * starter ({@link ResilienceAdvisorOrder#CHAOS}): an injected failure is what the method itself
 * would have thrown, so retries, the breaker, the timeout and idempotency all see it.
 */
public class ChaosAdvisor extends StaticMethodMatcherPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final Set<String> methods;

    /**
     * Creates the advisor.
     *
     * @param methods the operation names of the methods faults target: known before any bean is
     *     created, so matching needs no bean (the injector's own dependencies are matched too)
     * @param injector the injector, looked up when the first such method is called
     */
    public ChaosAdvisor(Set<String> methods, Supplier<FaultInjector> injector) {
        this.methods = Set.copyOf(methods);
        setOrder(ResilienceAdvisorOrder.CHAOS);
        MethodInterceptor interceptor = invocation -> {
            injector.get().beforeMethod(AnnotatedMethods.operationName(invocation.getMethod(),
                    invocation.getThis() == null ? null : invocation.getThis().getClass()));
            return invocation.proceed();
        };
        setAdvice(interceptor);
    }

    @Override
    public boolean matches(Method method, Class<?> targetClass) {
        return !methods.isEmpty() && methods.contains(AnnotatedMethods.operationName(method, targetClass));
    }
}
