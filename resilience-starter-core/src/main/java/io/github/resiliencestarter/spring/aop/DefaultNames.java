package io.github.resiliencestarter.spring.aop;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The default names one annotation gave its methods ({@code OrderController.create}), each kept by
 * the method that took it first. A default name is what records and budgets are shared under:
 * {@code v1.OrderController.create} and {@code v2.OrderController.create} under one name would
 * replay each other's responses, or spend one budget. A second method asking for a taken name
 * fails the start naming both; an explicit {@code name} is the user's choice and is not checked.
 */
final class DefaultNames {

    private final String annotation;

    private final Map<String, String> owners = new ConcurrentHashMap<>();

    /**
     * Creates the names of one annotation.
     *
     * @param annotation the annotation, for messages, e.g. {@code "@Idempotent"}
     */
    DefaultNames(String annotation) {
        this.annotation = annotation;
    }

    /**
     * Takes the default name of a method, once per method.
     *
     * @param name the default name
     * @param method the method
     * @param targetClass the bean's class, or {@code null}
     * @return the name
     * @throws InvalidDeclarationException when another method took it
     */
    String take(String name, Method method, @Nullable Class<?> targetClass) {
        String described = AnnotatedMethods.describe(method, targetClass);
        String owner = owners.putIfAbsent(name, described);
        if (owner != null && !owner.equals(described)) {
            throw new InvalidDeclarationException(annotation + " on " + described + " and on " + owner
                    + " share the default name '" + name + "', so they would share what is kept under it.",
                    "Give one of them (or both) a name of its own: " + annotation + "(name = \"...\").");
        }
        return name;
    }
}
