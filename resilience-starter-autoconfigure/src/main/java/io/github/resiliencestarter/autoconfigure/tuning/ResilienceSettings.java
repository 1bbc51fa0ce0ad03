package io.github.resiliencestarter.autoconfigure.tuning;

import io.github.resiliencestarter.autoconfigure.retry.RetryConfigCustomizer;
import io.github.resiliencestarter.autoconfigure.retry.RetryProperties;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutConfigCustomizer;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutProperties;
import io.github.resiliencestarter.retry.RetryRule;
import io.github.resiliencestarter.spring.actuate.SettingsChanges;
import io.github.resiliencestarter.spring.aop.AnnotatedOperationSource;
import io.github.resiliencestarter.spring.aop.OperationGenerations;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;
import org.springframework.validation.FieldError;
import org.springframework.validation.Validator;

/**
 * The {@code resilience.timeout.*}, {@code resilience.retry.*} and {@code resilience.circuit-breaker.*}
 * settings in force, reloadable at run time. {@link #reload()} binds both groups again from the {@link Environment}, checks them
 * exactly as at startup, resolves every annotated method with them, and only then publishes them:
 * an invalid value anywhere leaves every old setting in force, with one ERROR line saying why.
 * Each call uses the settings in force when it started; the next call of every method uses the
 * new ones.
 *
 * <p>Called on Spring Cloud's {@code EnvironmentChangeEvent} (after {@code /actuator/refresh}) for
 * changed {@code resilience.*} keys; without Spring Cloud, change the environment's property
 * sources and call {@link #reload()}. The OFFLOAD executor's sizes and the idempotency settings
 * need a restart. Retry budgets start a new window with the new settings.
 */
public class ResilienceSettings implements SettingsChanges {

    private static final Logger log = LoggerFactory.getLogger(ResilienceSettings.class);

    private final Environment environment;

    private final ObjectProvider<TimeoutOperationSource> timeouts;

    private final ObjectProvider<RetryOperationSource> retries;

    private final ObjectProvider<TimeoutConfigCustomizer> timeoutCustomizers;

    private final ObjectProvider<RetryConfigCustomizer> retryCustomizers;

    private final ObjectProvider<RetryRule> retryRules;

    private final ObjectProvider<TunableGroup> groups;

    private volatile long generation;

    private volatile Instant appliedAt = Instant.now();

    private volatile @Nullable String lastRejection;

    /**
     * Creates the settings.
     *
     * @param environment where the properties are bound from
     * @param timeouts the {@code @Timeout} methods, when timeouts are on
     * @param retries the {@code @Retry} methods, when retries are on
     * @param timeoutCustomizers adjust named timeout instances in code, as at startup
     * @param retryCustomizers adjust named retry instances in code, as at startup
     * @param retryRules extra classification rules, as at startup
     * @param groups further groups of settings, such as the circuit breakers'
     */
    public ResilienceSettings(Environment environment, ObjectProvider<TimeoutOperationSource> timeouts,
            ObjectProvider<RetryOperationSource> retries, ObjectProvider<TimeoutConfigCustomizer> timeoutCustomizers,
            ObjectProvider<RetryConfigCustomizer> retryCustomizers, ObjectProvider<RetryRule> retryRules,
            ObjectProvider<TunableGroup> groups) {
        this.environment = environment;
        this.timeouts = timeouts;
        this.retries = retries;
        this.timeoutCustomizers = timeoutCustomizers;
        this.retryCustomizers = retryCustomizers;
        this.retryRules = retryRules;
        this.groups = groups;
    }

    /**
     * Binds, checks and applies the current {@code resilience.timeout.*} and
     * {@code resilience.retry.*} values, all or nothing.
     *
     * @return {@code true} when the new settings are in force, {@code false} when they were refused
     *     (the old ones stay; {@link #lastRejection()} says why)
     */
    public synchronized boolean reload() {
        List<Runnable> publish = new ArrayList<>(2);
        try {
            Binder binder = Binder.get(environment);
            TimeoutOperationSource timeoutSource = timeouts.getIfAvailable();
            if (timeoutSource != null) {
                TimeoutProperties timeout = bind(binder, "resilience.timeout", new TimeoutProperties());
                publish.add(timeoutSource.prepare(timeout.toRegistry(timeoutCustomizers.orderedStream().toList())));
            }
            RetryOperationSource retrySource = retries.getIfAvailable();
            if (retrySource != null) {
                RetryProperties retry = bind(binder, "resilience.retry", new RetryProperties());
                publish.add(retrySource.prepare(new RetryOperationSource.Settings(
                        retry.toRegistry(retryRules.orderedStream().toList(),
                                retryCustomizers.orderedStream().toList()),
                        retry.getMaxAttemptsCap(), retry.effectiveJitterFactor())));
            }
            for (TunableGroup group : groups.orderedStream().toList()) {
                publish.add(group.prepare(binder));
            }
        } catch (RuntimeException ex) {
            String reason = reason(ex);
            lastRejection = reason;
            log.error("New resilience settings refused, the previous ones stay in force: {}", reason);
            return false;
        }
        publishTogether(publish, timeouts.getIfAvailable(), retries.getIfAvailable());
        generation++;
        appliedAt = Instant.now();
        log.info("Resilience settings applied (generation {})", generation);
        return true;
    }

    /**
     * Runs the publishing steps so that the sources sharing generations publish in one write: a call
     * of a method with {@code @Timeout} and {@code @Retry} reads both settings from one reload.
     */
    private static void publishTogether(List<Runnable> publish, @Nullable TimeoutOperationSource timeoutSource,
            @Nullable RetryOperationSource retrySource) {
        Runnable steps = () -> publish.forEach(Runnable::run);
        Set<OperationGenerations> generations = Collections.newSetFromMap(new IdentityHashMap<>());
        for (AnnotatedOperationSource<?, ?> source : Arrays.asList(timeoutSource, retrySource)) {
            if (source != null && generations.add(source.generations())) {
                Runnable inner = steps;
                steps = () -> source.generations().publishTogether(inner);
            }
        }
        steps.run();
    }

    /**
     * Binds a group of properties into a fresh instance and checks it as Boot does at startup.
     *
     * @param binder binds from the environment
     * @param prefix the group's prefix, such as {@code resilience.retry}
     * @param fresh an instance with the defaults, which is also the validator
     * @param <T> the properties type
     * @return the bound instance
     * @throws RuntimeException when a value is refused
     */
    public static <T extends Validator> T bind(Binder binder, String prefix, T fresh) {
        // the properties classes check themselves with the engine's checks, as when Boot binds them
        return binder.bind(prefix, Bindable.ofInstance(fresh), new ValidationBindHandler(fresh)).orElse(fresh);
    }

    /** "property = value: reason" for refused values, as Boot's startup report names them. */
    private static String reason(RuntimeException ex) {
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
        if (cause instanceof BindValidationException invalid) {
            return invalid.getValidationErrors().getAllErrors().stream().map(error -> error instanceof FieldError field
                    ? field.getObjectName() + "." + field.getField() + " = " + field.getRejectedValue() + ": "
                            + field.getDefaultMessage()
                    : error.getDefaultMessage()).collect(Collectors.joining("; "));
        }
        return String.valueOf(cause.getMessage());
    }

    @Override
    public long generation() {
        return generation;
    }

    @Override
    public Instant appliedAt() {
        return appliedAt;
    }

    @Override
    public @Nullable String lastRejection() {
        return lastRejection;
    }
}
