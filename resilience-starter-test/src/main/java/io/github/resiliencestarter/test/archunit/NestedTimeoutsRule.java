package io.github.resiliencestarter.test.archunit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.spring.aop.AnnotationValues;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.util.PropertyPlaceholderHelper;

/**
 * A {@code @Timeout} reached from another {@code @Timeout}'s method is not longer than it. With
 * the default {@code inheritDeadline = true} the longer inner limit never takes effect (the outer
 * deadline ends the call first), which misleads whoever reads it; with {@code inheritDeadline =
 * false} the inner call outlives its caller (rules T-1, T-P3). Followed through methods without a
 * {@code @Timeout} of their own (a service between controller and repository), into implementations
 * of called interfaces, up to {@value #MAX_DEPTH} calls deep. Limits are compared as written: a
 * placeholder by its default ({@code ${orders.timeout:2s}} is 2 s), one without a default, or a
 * limit taken from configuration only ({@code name} without {@code value}), is not compared.
 */
final class NestedTimeoutsRule {

    static final int MAX_DEPTH = 8;

    /** Resolves a placeholder to its default, leaving one without a default as it is. */
    private static final PropertyPlaceholderHelper DEFAULTS = new PropertyPlaceholderHelper("${", "}", ":", null,
            true);

    private NestedTimeoutsRule() {
    }

    static ArchRule rule() {
        return methods().should(new ArchCondition<JavaMethod>("not call a @Timeout longer than their own") {
            @Override
            public void check(JavaMethod outer, ConditionEvents events) {
                Limit own = limit(outer);
                if (own == null) {
                    return;
                }
                List<JavaCodeUnit> frontier = new ArrayList<>(List.of(outer));
                Set<JavaCodeUnit> seen = new HashSet<>(frontier);
                for (int depth = 0; depth < MAX_DEPTH && !frontier.isEmpty(); depth++) {
                    List<JavaCodeUnit> next = new ArrayList<>();
                    for (JavaCodeUnit caller : frontier) {
                        for (JavaMethodCall call : caller.getMethodCallsFromSelf()) {
                            for (JavaMethod callee : callees(call)) {
                                if (!seen.add(callee)) {
                                    continue;
                                }
                                Limit inner = limit(callee);
                                if (inner == null) {
                                    next.add(callee);
                                } else if (inner.value.compareTo(own.value) > 0) {
                                    events.add(SimpleConditionEvent.violated(outer,
                                            message(outer, own, callee, inner)));
                                }
                            }
                        }
                    }
                    frontier = next;
                }
            }
        }).allowEmptyShould(true).because("a budget only shrinks down the chain (rules T-1, T-P3)");
    }

    private static String message(JavaMethod outer, Limit own, JavaMethod callee, Limit inner) {
        String consequence = inner.inherits
                ? "it never takes effect, since the caller's deadline ends the call first, and misleads whoever "
                        + "reads it. Shorten it to fit the caller's, or remove it"
                : "with inheritDeadline = false it outlives the caller, who has given up by then: a ghost request "
                        + "(rule T-P3). Shorten it, or keep inheritDeadline = true";
        return callee.getFullName() + " has @Timeout(" + inner.raw + ") = " + inner.value + ", longer than the "
                + "@Timeout(" + own.raw + ") = " + own.value + " of " + outer.getFullName() + ", which calls it: "
                + consequence + " " + outer.getSourceCodeLocation();
    }

    /** The called method, and its implementations when it is declared by an interface or is abstract. */
    private static List<JavaMethod> callees(JavaMethodCall call) {
        List<JavaMethod> found = new ArrayList<>();
        call.getTarget().resolveMember().ifPresent(target -> {
            found.add(target);
            JavaClass owner = target.getOwner();
            if (owner.isInterface() || target.getModifiers().contains(JavaModifier.ABSTRACT)) {
                for (JavaClass implementation : owner.getAllSubclasses()) {
                    implementation.tryGetMethod(target.getName(), target.getRawParameterTypes().stream()
                            .map(JavaClass::getName).toArray(String[]::new)).ifPresent(found::add);
                }
            }
        });
        return found;
    }

    /** The written limit of a method, or {@code null} when it has none or it is not known at build time. */
    private static @Nullable Limit limit(JavaMethod imported) {
        Method method = ReflectedMethods.reflect(imported);
        Timeout timeout = method == null ? null : ReflectedMethods.annotation(method, Timeout.class);
        if (method == null || timeout == null || timeout.value().isEmpty()) {
            return null;
        }
        String written = DEFAULTS.replacePlaceholders(timeout.value(), new Properties());
        if (written.contains("${")) {
            return null;
        }
        try {
            Duration value = AnnotationValues.duration(written, null, "@Timeout", ReflectedMethods.describe(method),
                    false);
            return value == null ? null : new Limit(timeout.value(), value, timeout.inheritDeadline());
        } catch (RuntimeException invalid) {
            // an invalid value fails the application's start with its own message: not this rule's to report
            return null;
        }
    }

    private record Limit(String raw, Duration value, boolean inherits) {
    }
}
