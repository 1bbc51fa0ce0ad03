package io.github.resiliencestarter.spring.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Base of the per-annotation operation sources: finds the annotation on a method, has the subclass
 * build the operation once, and caches it per method and target class, so the hot path does no
 * reflection, placeholder resolution or expression parsing.
 *
 * @param <A> the annotation
 * @param <O> the resolved operation
 */
public abstract class AnnotatedOperationSource<A extends Annotation, O> implements AnnotatedMethodResolver {

    private final Class<A> annotationType;

    private volatile MethodOperationCache<O> cache = new MethodOperationCache<>(this::findAndBuild);

    /**
     * Creates the source.
     *
     * @param annotationType the annotation it resolves
     */
    protected AnnotatedOperationSource(Class<A> annotationType) {
        this.annotationType = annotationType;
    }

    /**
     * The resolved operation of {@code method}, or {@code null} when it has no such annotation.
     *
     * @param method the invoked method
     * @param targetClass the bean's class
     * @return the operation
     */
    public @Nullable O get(Method method, @Nullable Class<?> targetClass) {
        return cache.get(method, targetClass);
    }

    /**
     * Every operation resolved so far, for the actuator endpoint.
     *
     * @return a snapshot
     */
    public List<O> operations() {
        return cache.resolved();
    }

    @Override
    public Class<A> annotationType() {
        return annotationType;
    }

    @Override
    public void resolve(Method method, Class<?> targetClass) {
        get(method, targetClass);
    }

    /**
     * Builds the operation of an annotated method; called once per method and target class.
     *
     * @param annotation the annotation found on the method or its class
     * @param method the method
     * @param targetClass the bean's class
     * @return the operation
     */
    protected abstract O build(A annotation, Method method, @Nullable Class<?> targetClass);

    private @Nullable O findAndBuild(Method method, @Nullable Class<?> targetClass) {
        A annotation = AnnotatedMethods.find(method, targetClass, annotationType);
        return annotation == null ? null : build(annotation, method, targetClass);
    }

    /**
     * Prepares new settings: resolves again, with {@code builder}, every method resolved so far, and
     * returns the step that publishes them. Nothing changes until that step runs, and it is never
     * returned when a method refuses the new settings; a call in flight keeps the operation it
     * started with, so no call sees a mix of old and new settings of one annotation.
     *
     * @param builder builds an operation from the new settings
     * @param adopt makes the new settings this source's own (for methods resolved later)
     * @return the step that publishes the new operations
     * @throws RuntimeException when a method refuses the new settings
     */
    protected final Runnable prepare(OperationBuilder<A, O> builder, Runnable adopt) {
        MethodOperationCache<O> next = cache.refilledWith((method, targetClass) -> {
            A annotation = AnnotatedMethods.find(method, targetClass, annotationType);
            return annotation == null ? null : builder.build(annotation, method, targetClass);
        });
        return () -> {
            adopt.run();
            cache = next;
        };
    }

    /**
     * Builds an operation from one set of settings.
     *
     * @param <A> the annotation
     * @param <O> the operation
     */
    @FunctionalInterface
    protected interface OperationBuilder<A, O> {

        /**
         * Builds the operation of an annotated method.
         *
         * @param annotation the annotation
         * @param method the method
         * @param targetClass the bean's class
         * @return the operation
         */
        O build(A annotation, Method method, @Nullable Class<?> targetClass);
    }
}
