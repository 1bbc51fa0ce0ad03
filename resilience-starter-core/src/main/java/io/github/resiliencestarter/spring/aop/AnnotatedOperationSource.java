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

    private final OperationGenerations generations;

    private final int slot;

    /**
     * Creates a source whose settings are published on their own.
     *
     * @param annotationType the annotation it resolves
     */
    protected AnnotatedOperationSource(Class<A> annotationType) {
        this(annotationType, new OperationGenerations());
    }

    /**
     * Creates a source whose settings are published with those of the other sources of
     * {@code generations}.
     *
     * @param annotationType the annotation it resolves
     * @param generations the generations it shares with the other tunable sources
     */
    protected AnnotatedOperationSource(Class<A> annotationType, OperationGenerations generations) {
        this.annotationType = annotationType;
        this.generations = generations;
        this.slot = generations.register(new MethodOperationCache<O>(this::findAndBuild));
    }

    /**
     * The resolved operation of {@code method}, or {@code null} when it has no such annotation.
     *
     * @param method the invoked method
     * @param targetClass the bean's class
     * @return the operation
     */
    public @Nullable O get(Method method, @Nullable Class<?> targetClass) {
        return get(null, method, targetClass);
    }

    /**
     * The resolved operation of {@code method} in the generation a call pinned.
     *
     * @param pinned the generation the call pinned, or {@code null} for the current one
     * @param method the invoked method
     * @param targetClass the bean's class
     * @return the operation, or {@code null} when the method has no such annotation
     */
    public @Nullable O get(OperationGenerations.@Nullable Generation pinned, Method method,
            @Nullable Class<?> targetClass) {
        return generations.<O>cache(pinned, slot).get(method, targetClass);
    }

    /**
     * The generations this source publishes in.
     *
     * @return the generations
     */
    public OperationGenerations generations() {
        return generations;
    }

    /**
     * Whether a method carries another annotation of this source's generations, so that one call
     * must read all of them from one generation; for the builders.
     *
     * @param method the method
     * @param targetClass the bean's class
     * @return {@code true} when its calls pin a generation
     */
    protected boolean sharesSettings(Method method, @Nullable Class<?> targetClass) {
        return generations.shared(method, targetClass);
    }

    /**
     * Every operation resolved so far, for the actuator endpoint.
     *
     * @return a snapshot
     */
    public List<O> operations() {
        return generations.<O>cache(null, slot).resolved();
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
     * started with, so no call sees a mix of old and new settings of one annotation, and a call
     * that pinned a generation ({@link OperationGenerations}) none of several annotations.
     *
     * @param builder builds an operation from the new settings
     * @param adopt makes the new settings this source's own (for methods resolved later)
     * @return the step that publishes the new operations
     * @throws RuntimeException when a method refuses the new settings
     */
    protected final Runnable prepare(OperationBuilder<A, O> builder, Runnable adopt) {
        MethodOperationCache<O> next = generations.<O>cache(null, slot).refilledWith((method, targetClass) -> {
            A annotation = AnnotatedMethods.find(method, targetClass, annotationType);
            return annotation == null ? null : builder.build(annotation, method, targetClass);
        });
        return () -> {
            adopt.run();
            generations.replace(slot, next);
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
