package io.github.resiliencestarter.autoconfigure.aot;

import io.github.resiliencestarter.annotation.Idempotent;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationAttributes;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * For a native image: what the starter reflects on in a bean whose methods (or class) carry its
 * annotations. The fallback methods they name are looked up by name among the class's declared
 * methods and invoked reflectively; an {@code @Idempotent} method's arguments are read by its key
 * expression (a property path such as {@code #request.orderNo}), and its answer is stored and
 * replayed, so its parameter and return types are bound as Spring binds a request body.
 * Registered in {@code META-INF/spring/aot.factories}.
 */
public class AnnotatedBeanHints implements BeanRegistrationAotProcessor {

    private static final String FALLBACK = "fallbackMethod";

    private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Class<?> type = ClassUtils.getUserClass(registeredBean.getBeanClass());
        boolean classLevel = annotated(type);
        List<Method> governed = new ArrayList<>();
        ReflectionUtils.doWithMethods(type, method -> {
            if (classLevel || annotated(method)) {
                governed.add(method);
            }
        }, method -> method.getDeclaringClass() != Object.class);
        if (!classLevel && governed.isEmpty()) {
            return null;
        }
        return (generation, code) -> register(generation.getRuntimeHints().reflection(), type, governed);
    }

    private void register(ReflectionHints reflection, Class<?> type, List<Method> governed) {
        // fallbacks are found by name among the declared methods of the class and its superclasses
        for (Class<?> level = type; level != null && level != Object.class; level = level.getSuperclass()) {
            reflection.registerType(level, MemberCategory.INTROSPECT_DECLARED_METHODS);
        }
        Set<String> fallbacks = new LinkedHashSet<>();
        Set<Type> bound = new LinkedHashSet<>();
        for (Method method : governed) {
            fallbacks.addAll(fallbackNames(method, type));
            if (AnnotatedElementUtils.hasAnnotation(method, Idempotent.class)
                    || AnnotatedElementUtils.hasAnnotation(type, Idempotent.class)) {
                bound.addAll(List.of(method.getGenericParameterTypes()));
                bound.add(method.getGenericReturnType());
            }
        }
        ReflectionUtils.doWithMethods(type, fallback -> reflection.registerMethod(fallback, ExecutableMode.INVOKE),
                candidate -> fallbacks.contains(candidate.getName()));
        bindings.registerReflectionHints(reflection, bound.toArray(Type[]::new));
    }

    private static Set<String> fallbackNames(Method method, Class<?> type) {
        Set<String> names = new LinkedHashSet<>();
        for (Class<? extends Annotation> annotation : ResilienceRuntimeHints.GOVERNING) {
            for (AnnotatedElement element : List.of(method, type)) {
                AnnotationAttributes attributes = AnnotatedElementUtils.getMergedAnnotationAttributes(element,
                        annotation);
                if (attributes != null && attributes.containsKey(FALLBACK)
                        && !attributes.getString(FALLBACK).isEmpty()) {
                    names.add(attributes.getString(FALLBACK));
                }
            }
        }
        return names;
    }

    private static boolean annotated(AnnotatedElement element) {
        return ResilienceRuntimeHints.GOVERNING.stream()
                .anyMatch(annotation -> AnnotatedElementUtils.hasAnnotation(element, annotation));
    }
}
