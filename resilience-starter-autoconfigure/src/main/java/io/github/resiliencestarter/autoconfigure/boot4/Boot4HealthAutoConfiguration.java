package io.github.resiliencestarter.autoconfigure.boot4;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.circuit.CircuitBreakerAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyProperties;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.spring.actuate.CircuitBreakerHealth;
import io.github.resiliencestarter.spring.actuate.HealthReport;
import io.github.resiliencestarter.spring.actuate.IdempotencyStoreHealth;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring Boot 4.x: the idempotency store's health ({@link IdempotencyStoreHealth}) as the
 * {@code resilienceIdempotency} health component, and the breakers' ({@link CircuitBreakerHealth}) as
 * {@code resilienceCircuitBreakers}.
 */
@AutoConfiguration(after = {IdempotencyAutoConfiguration.class, CircuitBreakerAutoConfiguration.class})
@ConditionalOnResilienceEnabled
@ConditionalOnClass(name = {"org.springframework.boot.health.contributor.HealthIndicator", "org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator"})
public class Boot4HealthAutoConfiguration {

    /**
     * The idempotency store's health.
     *
     * @param activation the store once in use
     * @param properties the idempotency properties
     * @return the indicator
     */
    @Bean
    @ConditionalOnBean(IdempotencyStore.class)
    @ConditionalOnMissingBean(name = "resilienceIdempotencyHealthIndicator")
    @ConditionalOnEnabledHealthIndicator("resilienceIdempotency")
    public HealthIndicator resilienceIdempotencyHealthIndicator(IdempotencyActivation activation,
            ObjectProvider<IdempotencyProperties> properties) {
        IdempotencyProperties settings = properties.getIfAvailable();
        IdempotencyStoreHealth health = new IdempotencyStoreHealth(activation, settings != null && settings.isFailOpen());
        return () -> {
            HealthReport report = health.check();
            return Health.status(report.status()).withDetails(report.details()).build();
        };
    }

    /** The breakers' health, with Resilience4j present (and this line's health types, as above). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.health.contributor.HealthIndicator", "io.github.resilience4j.circuitbreaker.CircuitBreaker"})
    static class CircuitBreakers {

        /**
         * The breakers' health: UP, naming the breakers that are not closed.
         *
         * @param registry the breakers
         * @return the indicator
         */
        @Bean
        @ConditionalOnBean(CircuitRegistry.class)
        @ConditionalOnMissingBean(name = "resilienceCircuitBreakersHealthIndicator")
        @ConditionalOnEnabledHealthIndicator("resilienceCircuitBreakers")
        HealthIndicator resilienceCircuitBreakersHealthIndicator(CircuitRegistry registry) {
            CircuitBreakerHealth health = new CircuitBreakerHealth(registry);
            return () -> {
                HealthReport report = health.check();
                return Health.status(report.status()).withDetails(report.details()).build();
            };
        }
    }
}
