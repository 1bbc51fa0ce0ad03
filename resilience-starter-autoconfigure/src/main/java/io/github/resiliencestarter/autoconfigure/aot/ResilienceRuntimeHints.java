package io.github.resiliencestarter.autoconfigure.aot;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.IdempotencyExempt;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import java.lang.annotation.Annotation;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What the starter itself loads and reflects on, for a native image: the JDBC store's schema
 * scripts and Liquibase change log, the Redis store's Lua scripts (read as resources when the
 * store starts), and its annotations, whose attributes are read reflectively. Registered in
 * {@code META-INF/spring/aot.factories}.
 */
public class ResilienceRuntimeHints implements RuntimeHintsRegistrar {

    /** The annotations that govern a method: what {@link AnnotatedBeanHints} looks for on beans. */
    static final List<Class<? extends Annotation>> GOVERNING = List.of(Timeout.class, Retry.class,
            Idempotent.class, CircuitBreaker.class);

    /** The schema scripts per database and the Liquibase change log. */
    static final String SCHEMA_RESOURCES = "db/resilience-starter/**";

    /** The Redis store's scripts, next to its class. */
    static final String LUA_RESOURCES = "io/github/resiliencestarter/idempotent/redis/*.lua";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(SCHEMA_RESOURCES).registerPattern(LUA_RESOURCES);
        for (Class<? extends Annotation> annotation : GOVERNING) {
            hints.reflection().registerType(annotation, MemberCategory.INVOKE_DECLARED_METHODS);
        }
        hints.reflection().registerType(IdempotencyExempt.class, MemberCategory.INVOKE_DECLARED_METHODS);
    }
}
