package io.github.resiliencestarter.spring.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * Something that resolves (and so validates) the settings of methods carrying an annotation.
 * {@link AnnotatedMethodValidator} calls every resolver for every annotated bean method at
 * startup, so a bad duration, fallback or expression stops the application from starting instead
 * of failing the first request.
 */
public interface AnnotatedMethodResolver {

    /**
     * The annotation this resolver handles.
     *
     * @return the annotation type
     */
    Class<? extends Annotation> annotationType();

    /**
     * Resolves the method, throwing when its settings are invalid.
     *
     * @param method the method
     * @param targetClass the bean's class
     */
    void resolve(Method method, Class<?> targetClass);
}
