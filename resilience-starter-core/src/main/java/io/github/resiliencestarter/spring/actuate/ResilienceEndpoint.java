package io.github.resiliencestarter.spring.actuate;

import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.retry.RetryBudget;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.retry.support.RatioRetryBudget;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import io.github.resiliencestarter.spring.aop.IdempotentOperation;
import io.github.resiliencestarter.spring.aop.IdempotentOperationSource;
import io.github.resiliencestarter.spring.aop.RetryOperation;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.spring.aop.TimeoutOperation;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/resilience}: every annotated method with its effective settings (after the
 * annotation, named instance and defaults were merged), the annotations that cannot take effect
 * and why, the idempotency store, the retry budgets'
 * state, the circuit breakers (when present) and the advisor's warnings. Read-only; exposed by the usual Actuator rules. Never shows
 * keys, payloads or trace ids.
 */
@Endpoint(id = "resilience")
public class ResilienceEndpoint {

    private final ObjectProvider<TimeoutOperationSource> timeouts;

    private final ObjectProvider<RetryOperationSource> retries;

    private final ObjectProvider<IdempotentOperationSource> idempotents;

    private final ObjectProvider<IdempotencyActivation> idempotency;

    private final ObjectProvider<RetryConfigRegistry> retryRegistry;

    private final ObjectProvider<ResilienceSettingsInspector> advisor;

    private final ObjectProvider<AnnotatedMethodValidator> validator;

    private final ObjectProvider<SettingsChanges> changes;

    private final ObjectProvider<ResilienceReportSection> sections;

    /**
     * Creates the endpoint; every part is optional.
     *
     * @param timeouts the {@code @Timeout} methods
     * @param retries the {@code @Retry} methods
     * @param idempotents the {@code @Idempotent} methods
     * @param idempotency the idempotency store once in use
     * @param retryRegistry the retry budgets
     * @param advisor the warnings
     * @param validator the annotations that cannot take effect
     * @param changes when the settings in force were applied (live tuning)
     * @param sections further sections (the circuit breakers)
     */
    public ResilienceEndpoint(ObjectProvider<TimeoutOperationSource> timeouts,
            ObjectProvider<RetryOperationSource> retries, ObjectProvider<IdempotentOperationSource> idempotents,
            ObjectProvider<IdempotencyActivation> idempotency, ObjectProvider<RetryConfigRegistry> retryRegistry,
            ObjectProvider<ResilienceSettingsInspector> advisor, ObjectProvider<AnnotatedMethodValidator> validator,
            ObjectProvider<SettingsChanges> changes, ObjectProvider<ResilienceReportSection> sections) {
        this.timeouts = timeouts;
        this.retries = retries;
        this.idempotents = idempotents;
        this.idempotency = idempotency;
        this.retryRegistry = retryRegistry;
        this.advisor = advisor;
        this.validator = validator;
        this.changes = changes;
        this.sections = sections;
    }

    /**
     * The report.
     *
     * @return methods, store, budgets and warnings
     */
    @ReadOperation
    public Map<String, Object> report() {
        Map<String, Map<String, Object>> methods = new TreeMap<>();
        timeouts.ifAvailable(source -> source.operations().forEach(op -> methods
                .computeIfAbsent(op.name(), k -> new LinkedHashMap<>()).put("timeout", describe(op))));
        retries.ifAvailable(source -> source.operations().forEach(op -> methods
                .computeIfAbsent(op.name(), k -> new LinkedHashMap<>()).put("retry", describe(op))));
        idempotents.ifAvailable(source -> source.operations().forEach(op -> methods
                .computeIfAbsent(op.method().getDeclaringClass().getSimpleName() + "." + op.method().getName(),
                        k -> new LinkedHashMap<>()).put("idempotent", describe(op))));
        Map<String, Object> report = new LinkedHashMap<>();
        SettingsChanges applied = changes.getIfAvailable();
        if (applied != null) {
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("generation", applied.generation());
            settings.put("appliedAt", applied.appliedAt().toString());
            settings.put("lastRejection", applied.lastRejection());
            report.put("settings", settings);
        }
        report.put("methods", methods);
        // annotations no call will go through: private, static or final methods, classes that are not beans
        List<Map<String, String>> inactive = new ArrayList<>();
        validator.ifAvailable(found -> found.inactive().forEach(annotation -> inactive.add(Map.of(
                "method", annotation.method(), "annotation", annotation.annotation(), "reason", annotation.reason()))));
        report.put("inactive", inactive);
        // never creates the store: null while no @Idempotent method exists
        IdempotencyActivation activation = idempotency.getIfAvailable();
        report.put("idempotencyStore", activation == null ? null : activation.ifActive()
                .map(active -> active.store().getClass().getSimpleName()).orElse(null));
        Map<String, Object> budgets = new TreeMap<>();
        RetryOperationSource retrySource = retries.getIfAvailable();
        RetryConfigRegistry inForce = retrySource != null ? retrySource.settings().registry()
                : retryRegistry.getIfAvailable();
        if (inForce != null) {
            inForce.budgets().forEach((name, budget) -> budgets.put(name, describe(budget)));
        }
        report.put("retryBudgets", budgets);
        sections.orderedStream().forEach(section -> report.put(section.name(), section.report()));
        ResilienceSettingsInspector warnings = advisor.getIfAvailable();
        report.put("warnings", warnings == null ? List.of() : warnings.warnings());
        return report;
    }

    private static Map<String, Object> describe(TimeoutOperation op) {
        TimeoutConfig config = op.guard().config();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("timeoutMs", config.timeout().toMillis());
        out.put("mode", config.mode().name());
        out.put("rollout", config.rollout().percent());
        out.put("inheritDeadline", config.inheritDeadline());
        out.put("fallback", op.fallback() != null);
        return out;
    }

    private static Map<String, Object> describe(RetryOperation op) {
        RetryConfig policy = op.retrier().config();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("maxAttempts", policy.maxAttempts());
        out.put("mode", policy.rollout().mode().name());
        out.put("rollout", policy.rollout().percent());
        out.put("backOff", policy.backOff().toString());
        out.put("attemptTimeoutMs", policy.attemptTimeout() == null ? null : policy.attemptTimeout().toMillis());
        out.put("onlyUnsentFailures", policy.onlyUnsentFailures());
        out.put("hedge", policy.hedge() == null ? null : policy.hedge().toString());
        out.put("declaredIdempotent", op.declaredIdempotent());
        out.put("fallback", op.fallback() != null);
        return out;
    }

    private static Map<String, Object> describe(IdempotentOperation op) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", op.name());
        out.put("key", op.key() == null ? "header" : op.key().getExpressionString());
        out.put("fingerprint", op.fingerprintOff() ? "off"
                : op.fingerprint() == null ? "all parameters" : op.fingerprint().getExpressionString());
        out.put("ttl", op.config().ttl().toString());
        out.put("onInProgress", op.config().onInProgress().name());
        out.put("waitTimeoutMs", op.config().waitTimeout().toMillis());
        out.put("failOpen", op.config().failOpen());
        // enforced or only observed, and for which share of keys (docs/rollout.md)
        RolloutPolicy rollout = op.executor().rollout(op.name());
        out.put("mode", rollout.mode().name());
        out.put("rollout", rollout.percent());
        return out;
    }

    private static Map<String, Object> describe(RetryBudget budget) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (budget instanceof RatioRetryBudget ratio) {
            long[] counts = ratio.snapshot();
            out.put("callsInWindow", counts[0]);
            out.put("retriesInWindow", counts[1]);
        } else {
            out.put("limited", false);
        }
        return out;
    }
}
