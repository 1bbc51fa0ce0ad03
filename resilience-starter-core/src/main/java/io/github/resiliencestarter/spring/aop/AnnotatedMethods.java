package io.github.resiliencestarter.spring.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;

/** Finds the annotation that applies to a method: on the method first, then on its class. */
public final class AnnotatedMethods {

    private AnnotatedMethods() {
    }

    /**
     * The annotation that applies to {@code method} when called on {@code targetClass}.
     *
     * @param method the invoked method (possibly an interface method)
     * @param targetClass the bean's class, or {@code null}
     * @param type the annotation type
     * @param <A> the annotation type
     * @return the annotation, or {@code null}
     */
    public static <A extends Annotation> @Nullable A find(Method method, @Nullable Class<?> targetClass,
            Class<A> type) {
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        A found = AnnotatedElementUtils.findMergedAnnotation(specific, type);
        if (found == null && specific != method) {
            found = AnnotatedElementUtils.findMergedAnnotation(method, type);
        }
        if (found == null && classLevelApplies(specific)) {
            Class<?> declaring = targetClass != null ? targetClass : method.getDeclaringClass();
            found = AnnotatedElementUtils.findMergedAnnotation(declaring, type);
        }
        return found;
    }

    /**
     * Whether an annotation on the class means this method: the class's own business methods, not
     * what comes with it. Left out: {@code Object}'s methods and their overrides
     * ({@code toString}, {@code equals}, {@code hashCode}), and default methods of an interface
     * that the class does not override (an OpenAPI-generated controller interface's
     * {@code getRequest()}); annotate such a method itself to govern it.
     */
    private static boolean classLevelApplies(Method specific) {
        if (specific.getDeclaringClass() == Object.class || specific.isDefault()) {
            return false;
        }
        String name = specific.getName();
        int parameters = specific.getParameterCount();
        return !((name.equals("toString") || name.equals("hashCode")) && parameters == 0)
                && !(name.equals("equals") && parameters == 1 && specific.getParameterTypes()[0] == Object.class);
    }

    /**
     * Why a proxy never sees calls to {@code method}, whatever object they are made on.
     *
     * @param method an annotated method
     * @return the reason, or {@code null} when a proxy can intercept it
     */
    public static @Nullable String unreachableReason(Method method) {
        int modifiers = method.getModifiers();
        if (Modifier.isPrivate(modifiers)) {
            return "the method is private, and a proxy only sees calls it can override";
        }
        if (Modifier.isStatic(modifiers)) {
            return "the method is static, and a proxy only sees calls on the bean";
        }
        if (Modifier.isFinal(modifiers)) {
            return "the method is final, so the proxy cannot override it";
        }
        return null;
    }

    /**
     * A short, stable name for a method: {@code SimpleClassName.method}.
     *
     * @param method the method
     * @param targetClass the bean's class, or {@code null}
     * @return the name
     */
    public static String operationName(Method method, @Nullable Class<?> targetClass) {
        Class<?> owner = targetClass != null ? targetClass : method.getDeclaringClass();
        return owner.getSimpleName() + "." + method.getName();
    }

    /**
     * A full, readable name for messages: {@code com.example.OrderController.create(OrderRequest)}.
     *
     * @param method the method
     * @param targetClass the bean's class, or {@code null}
     * @return the description
     */
    public static String describe(Method method, @Nullable Class<?> targetClass) {
        Class<?> owner = targetClass != null ? targetClass : method.getDeclaringClass();
        StringBuilder out = new StringBuilder(owner.getName()).append('.').append(method.getName()).append('(');
        Class<?>[] params = method.getParameterTypes();
        for (int i = 0; i < params.length; i++) {
            out.append(i == 0 ? "" : ", ").append(params[i].getSimpleName());
        }
        return out.append(')').toString();
    }
}
