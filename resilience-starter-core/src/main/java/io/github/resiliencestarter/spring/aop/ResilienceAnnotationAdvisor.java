package io.github.resiliencestarter.spring.aop;

import java.lang.annotation.Annotation;
import java.util.function.Supplier;
import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;

/**
 * Applies an interceptor to every method carrying an annotation, directly or on its class.
 *
 * <p>The interceptor is created on first use: advisors are instantiated very early (while
 * post-processors are still being created), and an interceptor built then would drag its
 * settings, stores and data sources along before every post-processor is in place.
 */
public class ResilienceAnnotationAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut;

    private final transient MethodInterceptor interceptor;

    /**
     * Creates the advisor.
     *
     * @param annotationType the annotation that selects methods
     * @param interceptor makes the interceptor to apply, on first use
     * @param order the advisor order, one of {@link ResilienceAdvisorOrder}
     */
    public ResilienceAnnotationAdvisor(Class<? extends Annotation> annotationType,
            Supplier<? extends MethodInterceptor> interceptor, int order) {
        this.pointcut = new ComposablePointcut(new AnnotationMatchingPointcut(annotationType, true))
                .union(new AnnotationMatchingPointcut(null, annotationType, true));
        this.interceptor = new LazyInterceptor(interceptor);
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }

    /**
     * Whether an element of a proxy's interceptor chain is {@code interceptor}, or this advisor's
     * lazy wrapper around it.
     *
     * @param element an element of the chain
     * @param interceptor the interceptor looked for
     * @return {@code true} when the element runs that interceptor
     */
    static boolean runs(Object element, MethodInterceptor interceptor) {
        return element == interceptor
                || (element instanceof LazyInterceptor lazy && lazy.delegate == interceptor);
    }

    /** Creates the real interceptor on its first invocation. */
    private static final class LazyInterceptor implements MethodInterceptor {

        private final Supplier<? extends MethodInterceptor> factory;

        private volatile @Nullable MethodInterceptor delegate;

        LazyInterceptor(Supplier<? extends MethodInterceptor> factory) {
            this.factory = factory;
        }

        @Override
        public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
            MethodInterceptor current = delegate;
            if (current == null) {
                synchronized (this) {
                    current = delegate;
                    if (current == null) {
                        current = factory.get();
                        delegate = current;
                    }
                }
            }
            return current.invoke(invocation);
        }
    }
}
