package io.github.resiliencestarter.test.archunit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.github.resiliencestarter.spring.aop.AnnotatedMethods;
import io.github.resiliencestarter.spring.aop.SelfInvocations;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The starter's annotations sit where a Spring proxy sees the call: not on private, static or
 * final methods, not in a final class, and not on methods the class calls on itself. The checks
 * are the ones the application runs at startup ({@link AnnotatedMethods#unreachableReason},
 * {@link SelfInvocations}), where they only warn.
 */
final class ProxyReachabilityRule {

    private ProxyReachabilityRule() {
    }

    static ArchRule rule(List<Class<? extends Annotation>> annotations) {
        return classes().should(new ArchCondition<JavaClass>("be reachable through the proxy where annotated") {
            @Override
            public void check(JavaClass imported, ConditionEvents events) {
                Class<?> type = ReflectedMethods.reflect(imported);
                if (type == null || type.isInterface() || type.isAnnotation()) {
                    return;
                }
                List<Method> annotated = ReflectedMethods.annotatedMethods(type, annotations);
                if (annotated.isEmpty()) {
                    return;
                }
                String where = " " + imported.getSourceCodeLocation();
                if (Modifier.isFinal(type.getModifiers())) {
                    events.add(SimpleConditionEvent.violated(imported, type.getName() + " is final and has "
                            + "annotated methods: a class-based proxy cannot subclass it, so no annotation of it "
                            + "takes effect. Remove final from the class" + where));
                }
                LinkedHashSet<Method> reachable = new LinkedHashSet<>();
                for (Method method : annotated) {
                    String reason = AnnotatedMethods.unreachableReason(method);
                    if (reason == null) {
                        reachable.add(method);
                    } else {
                        events.add(SimpleConditionEvent.violated(imported, ReflectedMethods.describe(method)
                                + " is annotated but " + reason + ". Make it a public, non-final instance method "
                                + "of the bean" + where));
                    }
                }
                for (SelfInvocations.Call call : SelfInvocations.find(type, reachable)) {
                    events.add(SimpleConditionEvent.violated(imported, ReflectedMethods.describe(call.callee())
                            + " is called from " + call.caller() + "() of its own class, a call the proxy never "
                            + "sees: its annotations do nothing for it. Move the method to another bean, or call it "
                            + "through the proxy" + where));
                }
            }
        }).allowEmptyShould(true).because("an annotation the proxy never sees protects nothing (docs/semantics.md)");
    }
}
