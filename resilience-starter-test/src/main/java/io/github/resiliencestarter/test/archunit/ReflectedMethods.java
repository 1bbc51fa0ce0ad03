package io.github.resiliencestarter.test.archunit;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import io.github.resiliencestarter.spring.aop.AnnotatedMethods;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * The imported code as the running application sees it: the rules reflect ArchUnit's methods and
 * ask the starter's own checks ({@link AnnotatedMethods}, the safety gate), so a rule and the
 * startup validation never disagree about what an annotation means.
 */
final class ReflectedMethods {

    private ReflectedMethods() {
    }

    /** The method as loaded, or {@code null} when its class cannot be loaded (generated, shaded). */
    static @Nullable Method reflect(JavaMethod method) {
        try {
            return method.reflect();
        } catch (RuntimeException | LinkageError unloadable) {
            return null;
        }
    }

    /**
     * The class as loaded, or {@code null} when it cannot be, or when Spring generated it: a
     * build that runs Spring AOT leaves the proxies it generated among the application's classes,
     * and a proxy's overrides are final by design.
     */
    static @Nullable Class<?> reflect(JavaClass type) {
        if (type.getName().contains(ClassUtils.CGLIB_CLASS_SEPARATOR)) {
            return null;
        }
        try {
            return type.reflect();
        } catch (RuntimeException | LinkageError unloadable) {
            return null;
        }
    }

    /**
     * The annotation of {@code type} that applies to the method: its own, else its class's, which
     * governs public methods only (as at startup).
     */
    static <A extends Annotation> @Nullable A annotation(Method method, Class<A> type) {
        if (!Modifier.isPublic(method.getModifiers())) {
            return AnnotatedElementUtils.findMergedAnnotation(method, type);
        }
        return AnnotatedMethods.find(method, method.getDeclaringClass(), type);
    }

    /** The methods a class declares that carry (or inherit from the class) any of the annotations. */
    static List<Method> annotatedMethods(Class<?> type, List<Class<? extends Annotation>> annotations) {
        List<Method> found = new ArrayList<>();
        for (Method method : type.getDeclaredMethods()) {
            if (method.isSynthetic() || method.isBridge()) {
                continue;
            }
            for (Class<? extends Annotation> annotation : annotations) {
                if (annotation(method, annotation) != null) {
                    found.add(method);
                    break;
                }
            }
        }
        return found;
    }

    /** {@code OrderController.create(OrderRequest)}, as messages name a member. */
    static String describe(Method method) {
        return AnnotatedMethods.describe(method, method.getDeclaringClass());
    }
}
