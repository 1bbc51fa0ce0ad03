package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutConfigRegistry;
import io.github.resiliencestarter.timeout.TimeoutGuard;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringValueResolver;

/**
 * Resolves {@code @Timeout} per method: annotation attributes over the named instance over the
 * defaults, placeholders resolved, the fallback looked up. Resolved once per method and cached.
 */
public class TimeoutOperationSource extends AnnotatedOperationSource<Timeout, TimeoutOperation> {

    private volatile TimeoutConfigRegistry registry;

    private final TimeoutRuntime runtime;

    private final StringValueResolver placeholders;

    /**
     * Creates the source.
     *
     * @param registry default and named settings
     * @param runtime the shared executor and timer
     * @param placeholders resolves {@code ${...}} in annotation values
     */
    public TimeoutOperationSource(TimeoutConfigRegistry registry, TimeoutRuntime runtime,
            StringValueResolver placeholders) {
        this(registry, runtime, placeholders, new OperationGenerations());
    }

    /**
     * Creates a source whose settings are published with the other sources' of
     * {@code generations}.
     *
     * @param registry default and named settings
     * @param runtime the shared executor and timer
     * @param placeholders resolves {@code ${...}} in annotation values
     * @param generations the generations shared with the other tunable sources
     */
    public TimeoutOperationSource(TimeoutConfigRegistry registry, TimeoutRuntime runtime,
            StringValueResolver placeholders, OperationGenerations generations) {
        super(Timeout.class, generations);
        this.registry = registry;
        this.runtime = runtime;
        this.placeholders = placeholders;
    }

    @Override
    protected TimeoutOperation build(Timeout annotation, Method method, @Nullable Class<?> targetClass) {
        return announced(build(annotation, method, targetClass, registry));
    }

    /**
     * Prepares new default and named settings for every {@code @Timeout} method (live tuning).
     *
     * @param next the new settings
     * @return the step that publishes them
     * @throws RuntimeException when a method refuses them
     */
    public Runnable prepare(TimeoutConfigRegistry next) {
        List<TimeoutOperation> prepared = new ArrayList<>();
        Runnable publish = prepare((annotation, method, targetClass) -> {
            TimeoutOperation operation = build(annotation, method, targetClass, next);
            prepared.add(operation);
            return operation;
        }, () -> registry = next);
        // the limits are told once they are in force: a reload refused after this point changes no gauge
        return () -> {
            publish.run();
            prepared.forEach(this::announced);
        };
    }

    /** Tells the runtime's observer the operation's limit, for a dashboard to compare its p99 with. */
    private TimeoutOperation announced(TimeoutOperation operation) {
        runtime.configured(operation.name(), operation.guard().config().timeout());
        return operation;
    }

    /**
     * The settings in force.
     *
     * @return default and named settings
     */
    public TimeoutConfigRegistry registry() {
        return registry;
    }

    private TimeoutOperation build(Timeout annotation, Method method, @Nullable Class<?> targetClass,
            TimeoutConfigRegistry registry) {
        String name = AnnotatedMethods.operationName(method, targetClass);
        TimeoutConfig configured = registry.config(annotation.name());
        TimeoutConfig.Builder config = TimeoutConfig.from(configured);
        Duration timeout = AnnotationValues.duration(annotation.value(), placeholders, "@Timeout", name, false);
        if (timeout != null) {
            config.timeout(timeout);
        }
        // observing is a rollout switch, set in the properties: an annotation's mode says how to enforce later
        if (annotation.mode() != TimeoutMode.DEFAULT && configured.mode() != TimeoutMode.OBSERVE) {
            config.mode(annotation.mode());
        }
        config.inheritDeadline(annotation.inheritDeadline());
        Class<?> owner = targetClass != null ? targetClass : method.getDeclaringClass();
        FallbackMethod fallback = FallbackMethod.resolve("@Timeout", annotation.fallbackMethod(), method, owner);
        return new TimeoutOperation(name, TimeoutGuard.of(name, config.build(), runtime), fallback,
                ResultKind.governable(method, "@Timeout", AnnotatedMethods.describe(method, targetClass)),
                sharesSettings(method, targetClass));
    }
}
