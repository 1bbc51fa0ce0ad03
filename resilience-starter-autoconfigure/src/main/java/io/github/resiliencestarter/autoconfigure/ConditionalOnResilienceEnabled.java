package io.github.resiliencestarter.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/** Matches unless {@code resilience.enabled=false}. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@ConditionalOnBooleanProperty(name = "resilience.enabled", matchIfMissing = true)
public @interface ConditionalOnResilienceEnabled {
}
