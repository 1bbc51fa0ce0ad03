package io.github.resiliencestarter.spring.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TraceContextHolder;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * A resolved {@code fallbackMethod}: the variants of one name that fit an annotated method, ready
 * to be called with the original arguments and the error.
 *
 * <p>A variant takes the original parameters, optionally followed by one {@link Throwable}
 * (sub)type, and returns a type assignable to the original's. For an error, the variant whose
 * exception parameter is the nearest supertype of the error wins; a variant without an exception
 * parameter handles any {@link Exception}. Resolution happens once, at startup, and fails with a
 * message naming the annotated method when no variant fits.
 */
public final class FallbackMethod {

    private final List<Variant> variants;

    private FallbackMethod(List<Variant> variants) {
        this.variants = variants;
    }

    /**
     * Resolves the fallback named {@code name} for {@code original}.
     *
     * @param annotation the annotation's simple name, for the error message ({@code "@Timeout"})
     * @param name the fallback method's name, or empty for none
     * @param original the annotated method
     * @param targetClass the class holding both
     * @return the resolved fallback, or {@code null} when {@code name} is empty
     * @throws IllegalStateException when no method of that name has a fitting signature
     */
    public static @Nullable FallbackMethod resolve(String annotation, @Nullable String name, Method original,
            Class<?> targetClass) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        Class<?>[] params = original.getParameterTypes();
        List<Variant> found = new ArrayList<>();
        ReflectionUtils.doWithMethods(targetClass, candidate -> {
            Variant variant = Variant.of(candidate, params, original.getReturnType());
            if (variant != null && found.stream().noneMatch(v -> v.sameSignature(candidate))) {
                found.add(variant);
            }
        }, candidate -> candidate.getName().equals(name) && !Modifier.isStatic(candidate.getModifiers()));
        if (found.isEmpty()) {
            String paramList = Arrays.stream(params).map(Class::getSimpleName).reduce((a, b) -> a + ", " + b)
                    .orElse("");
            throw new InvalidDeclarationException(annotation + " on " + AnnotatedMethods.describe(original, targetClass)
                    + " names fallbackMethod '" + name + "', but " + targetClass.getSimpleName()
                    + " has no such method with matching parameters.", "Add " + name + "(" + paramList
                    + (paramList.isEmpty() ? "" : ", ") + "[Throwable]) returning "
                    + original.getReturnType().getSimpleName() + " to " + targetClass.getSimpleName()
                    + ", or correct the name.");
        }
        // most specific exception parameter first; the catch-all variant last
        found.sort(Comparator.comparingInt(Variant::specificity).reversed());
        return new FallbackMethod(List.copyOf(found));
    }

    /**
     * Whether some variant handles {@code error}.
     *
     * @param error the error
     * @return {@code true} when {@link #invoke} will call a fallback
     */
    public boolean handles(Throwable error) {
        return select(error) != null;
    }

    /**
     * Calls the best variant for {@code error}, or rethrows {@code error} when none handles it.
     *
     * @param target the bean, {@code null} only for an invocation without one
     * @param args the original arguments
     * @param error the error the annotated method ended with
     * @return the fallback's result
     * @throws Throwable {@code error} when unhandled, or whatever the fallback threw
     */
    public @Nullable Object invoke(@Nullable Object target, Object[] args, Throwable error) throws Throwable {
        return invoke(target, args, error, TraceContextHolder.current().idempotentExecution());
    }

    /**
     * Calls the best variant for {@code error}, as {@link #invoke(Object, Object[], Throwable)} does,
     * on behalf of an idempotent execution captured where the call began (an asynchronous fallback
     * runs on whatever thread completed the failure).
     *
     * @param target the bean, {@code null} only for an invocation without one
     * @param args the original arguments
     * @param error the error the annotated method ended with
     * @param execution the idempotent execution the call runs in, or {@code null}: told that its
     *     answer is a fallback's, which releases its key unless it stores fallback answers
     * @return the fallback's result
     * @throws Throwable {@code error} when unhandled, or whatever the fallback threw
     */
    public @Nullable Object invoke(@Nullable Object target, Object[] args, Throwable error,
            @Nullable IdempotentExecution execution) throws Throwable {
        Variant variant = select(error);
        if (variant == null) {
            throw error;
        }
        if (execution != null) {
            execution.fallbackAnswered();
        }
        Object[] callArgs = args;
        if (variant.errorType != null) {
            callArgs = Arrays.copyOf(args, args.length + 1);
            callArgs[args.length] = error;
        }
        try {
            return variant.method.invoke(target, callArgs);
        } catch (InvocationTargetException ex) {
            throw ex.getTargetException();
        }
    }

    private @Nullable Variant select(Throwable error) {
        for (Variant variant : variants) {
            if (variant.errorType == null ? error instanceof Exception : variant.errorType.isInstance(error)) {
                return variant;
            }
        }
        return null;
    }

    private static final class Variant {

        private final Method method;

        private final @Nullable Class<?> errorType;

        private Variant(Method method, @Nullable Class<?> errorType) {
            this.method = method;
            this.errorType = errorType;
            ReflectionUtils.makeAccessible(method);
        }

        static @Nullable Variant of(Method candidate, Class<?>[] params, Class<?> returnType) {
            Class<?>[] own = candidate.getParameterTypes();
            boolean returns = returnType == void.class ? candidate.getReturnType() == void.class
                    : ClassUtils.isAssignable(returnType, candidate.getReturnType());
            if (!returns) {
                return null;
            }
            if (Arrays.equals(own, params)) {
                return new Variant(candidate, null);
            }
            if (own.length == params.length + 1 && Arrays.equals(Arrays.copyOf(own, params.length), params)
                    && Throwable.class.isAssignableFrom(own[params.length])) {
                return new Variant(candidate, own[params.length]);
            }
            return null;
        }

        boolean sameSignature(Method other) {
            return Arrays.equals(method.getParameterTypes(), other.getParameterTypes());
        }

        int specificity() {
            if (errorType == null) {
                return -1;
            }
            int depth = 0;
            for (Class<?> c = errorType; c != null; c = c.getSuperclass()) {
                depth++;
            }
            return depth;
        }
    }
}
