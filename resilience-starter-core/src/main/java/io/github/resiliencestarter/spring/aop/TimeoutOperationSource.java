package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutConfigRegistry;
import io.github.resiliencestarter.timeout.TimeoutGuard;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.lang.reflect.Method;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringValueResolver;

/**
 * Resolves {@code @Timeout} per method: annotation attributes over the named instance over the
 * defaults, placeholders resolved, the fallback looked up. Resolved once per method and cached.
 */
public class TimeoutOperationSource extends AnnotatedOperationSource<Timeout, TimeoutOperation> {

    private final TimeoutConfigRegistry registry;

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
        super(Timeout.class);
        this.registry = registry;
        this.runtime = runtime;
        this.placeholders = placeholders;
    }

    @Override
    protected TimeoutOperation build(Timeout annotation, Method method, @Nullable Class<?> targetClass) {
        String name = AnnotatedMethods.operationName(method, targetClass);
        TimeoutConfig.Builder config = TimeoutConfig.from(registry.config(annotation.name()));
        Duration timeout = AnnotationValues.duration(annotation.value(), placeholders, "@Timeout", name, false);
        if (timeout != null) {
            config.timeout(timeout);
        }
        if (annotation.mode() != TimeoutMode.DEFAULT) {
            config.mode(annotation.mode());
        }
        config.inheritDeadline(annotation.inheritDeadline());
        Class<?> owner = targetClass != null ? targetClass : method.getDeclaringClass();
        FallbackMethod fallback = FallbackMethod.resolve("@Timeout", annotation.fallbackMethod(), method, owner);
        return new TimeoutOperation(name, TimeoutGuard.of(name, config.build(), runtime), fallback,
                ResultKind.governable(method, "@Timeout", AnnotatedMethods.describe(method, targetClass)));
    }
}
