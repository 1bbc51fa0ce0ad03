package io.github.resiliencestarter.spring.aop;

import java.lang.annotation.Annotation;
import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;

/**
 * Applies an interceptor to every method carrying an annotation, directly or on its class.
 */
public class ResilienceAnnotationAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut;

    private final transient MethodInterceptor interceptor;

    /**
     * Creates the advisor.
     *
     * @param annotationType the annotation that selects methods
     * @param interceptor the interceptor to apply
     * @param order the advisor order, one of {@link ResilienceAdvisorOrder}
     */
    public ResilienceAnnotationAdvisor(Class<? extends Annotation> annotationType, MethodInterceptor interceptor,
            int order) {
        this.pointcut = new ComposablePointcut(new AnnotationMatchingPointcut(annotationType, true))
                .union(new AnnotationMatchingPointcut(null, annotationType, true));
        this.interceptor = interceptor;
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
}
