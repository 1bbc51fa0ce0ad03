package io.github.resiliencestarter.test.archunit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;

import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.spring.aop.RetrySafetyGate;
import io.github.resiliencestarter.spring.aop.RetrySafetyMode;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code @Retry} only where the startup safety gate would let it be (rules R-1, C-2): the same
 * gate, in its strictest mode, asked in the build instead of at the first start. A hedged method
 * must also be one the gate allows to run twice at once.
 */
final class RetrySafetyRule {

    private RetrySafetyRule() {
    }

    static ArchRule rule(List<Class<? extends Annotation>> idempotencyAnnotations) {
        List<Class<? extends Annotation>> markers = new ArrayList<>(idempotencyAnnotations);
        markers.add(0, Idempotent.class);
        RetrySafetyGate gate = new RetrySafetyGate(RetrySafetyMode.FAIL, markers);
        return methods().should(new ArchCondition<JavaMethod>("be safe to repeat when they carry @Retry") {
            @Override
            public void check(JavaMethod imported, ConditionEvents events) {
                Method method = ReflectedMethods.reflect(imported);
                Retry retry = method == null ? null : ReflectedMethods.annotation(method, Retry.class);
                if (method == null || retry == null) {
                    return;
                }
                String described = ReflectedMethods.describe(method);
                if (!gate.isSafe(method, retry)) {
                    events.add(SimpleConditionEvent.violated(imported, RetrySafetyGate.unsafeMessage(described)
                            + " " + RetrySafetyGate.UNSAFE_ACTION + " " + imported.getSourceCodeLocation()));
                } else if (!retry.hedgeDelay().isEmpty() && !gate.allowsHedging(method, retry)) {
                    events.add(SimpleConditionEvent.violated(imported, RetrySafetyGate.unsafeHedgingMessage(
                            described, gate.hasIdempotencyAnnotation(method)) + " "
                            + RetrySafetyGate.UNSAFE_HEDGING_ACTION + " " + imported.getSourceCodeLocation()));
                }
            }
        }).allowEmptyShould(true).because("only idempotent operations are retried (rules R-1, C-2)");
    }
}
