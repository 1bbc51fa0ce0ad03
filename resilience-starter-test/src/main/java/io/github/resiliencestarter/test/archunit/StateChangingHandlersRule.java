package io.github.resiliencestarter.test.archunit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;

import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.IdempotencyExempt;
import io.github.resiliencestarter.spring.aop.RetrySafetyGate;
import io.github.resiliencestarter.spring.aop.RetrySafetyMode;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * A handler that changes state carries {@code @Idempotent} or says why not
 * ({@link IdempotencyExempt}): rules I-2, I-4, R-P1. State-changing: mapped to a method that is
 * not idempotent by definition (POST, PATCH), or mapped to every method and named like a write.
 * What counts as idempotent by declaration is the safety gate's own answer.
 */
final class StateChangingHandlersRule {

    /** Names of writes: the verb the method starts with. */
    static final Pattern WRITE_NAME = Pattern.compile("^(create|add|insert|save|store|post|update|upsert|modify|edit"
            + "|patch|set|delete|remove|cancel|submit|place|pay|charge|refund|transfer|send|publish|book|reserve"
            + "|register|approve|confirm|execute|process|import|upload)([A-Z0-9_].*)?$");

    private StateChangingHandlersRule() {
    }

    static ArchRule rule(List<Class<? extends Annotation>> idempotencyAnnotations,
            List<Class<? extends Annotation>> exemptions) {
        List<Class<? extends Annotation>> markers = new ArrayList<>(idempotencyAnnotations);
        markers.add(0, Idempotent.class);
        RetrySafetyGate gate = new RetrySafetyGate(RetrySafetyMode.FAIL, markers);
        List<Class<? extends Annotation>> optOuts = new ArrayList<>(exemptions);
        optOuts.add(0, IdempotencyExempt.class);
        return methods().should(new ArchCondition<JavaMethod>(
                "be @Idempotent or declare @IdempotencyExempt when they are state-changing handlers") {
            @Override
            public void check(JavaMethod imported, ConditionEvents events) {
                Method method = ReflectedMethods.reflect(imported);
                if (method == null || !isStateChangingHandler(method) || gate.isIdempotentByDeclaration(method)
                        || exempt(method, optOuts)) {
                    return;
                }
                events.add(SimpleConditionEvent.violated(imported, ReflectedMethods.describe(method)
                        + " is a state-changing handler (" + mapped(method) + ") without @Idempotent: a client's "
                        + "retry or a double click runs it twice (rules I-2, R-P1). Add @Idempotent(key = ...) "
                        + "or, when duplicates are harmless by design (a status-guarded transition, I-7), "
                        + "@IdempotencyExempt(\"why\") " + imported.getSourceCodeLocation()));
            }
        }).allowEmptyShould(true).because("a write must be made idempotent where it is written (rules I-2, I-4)");
    }

    private static boolean isStateChangingHandler(Method method) {
        if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass().isInterface()) {
            return false;
        }
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
        if (mapping == null) {
            return false;
        }
        // mapped to named methods: the gate's "idempotent by declaration" tells the rest
        return mapping.method().length > 0 || WRITE_NAME.matcher(method.getName()).matches();
    }

    private static String mapped(Method method) {
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
        return mapping == null || mapping.method().length == 0 ? "any HTTP method, named like a write"
                : Arrays.toString(mapping.method());
    }

    private static boolean exempt(Method method, List<Class<? extends Annotation>> optOuts) {
        for (Class<? extends Annotation> optOut : optOuts) {
            if (ReflectedMethods.annotation(method, optOut) != null) {
                return true;
            }
        }
        return false;
    }
}
