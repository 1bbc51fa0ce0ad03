package io.github.resiliencestarter.autoconfigure.observability;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.idempotent.IdempotencyStoreDecorator;
import io.github.resiliencestarter.idempotent.support.NearCacheIdempotencyStore;
import io.github.resiliencestarter.micrometer.MeteredIdempotencyStore;
import io.github.resiliencestarter.micrometer.ObservationEvents;
import io.github.resiliencestarter.micrometer.ObservedAttempts;
import io.github.resiliencestarter.micrometer.ResilienceMetrics;
import io.github.resiliencestarter.retry.AttemptTracing;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.spring.actuate.ResilienceEndpoint;
import io.github.resiliencestarter.spring.actuate.ResilienceReportSection;
import io.github.resiliencestarter.spring.actuate.ResilienceSettingsInspector;
import io.github.resiliencestarter.spring.actuate.SettingsChanges;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import io.github.resiliencestarter.spring.aop.IdempotentOperationSource;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Metrics (when Micrometer has a registry) and the {@code resilience} endpoint with its advisor
 * (when Actuator is present). The store's health indicator is per Boot line
 * ({@code autoconfigure.boot3}, {@code autoconfigure.boot4}): Boot 4 moved the health types.
 */
@AutoConfiguration(after = {TimeoutAutoConfiguration.class, RetryAutoConfiguration.class,
    IdempotencyAutoConfiguration.class}, afterName = {
        // by name: Actuator is optional, and Boot 4 moved each of these (the Boot 3 name comes first)
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"})
@ConditionalOnResilienceEnabled
@EnableConfigurationProperties(ObservabilityProperties.class)
public class ObservabilityAutoConfiguration {

    /** Cache name of the near cache's metrics ({@code cache.gets{cache=...,result=hit|miss}} and others). */
    public static final String NEAR_CACHE_METRICS = "resilience.idempotent.near-cache";

    /** Micrometer meters. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnBooleanProperty(name = "resilience.observability.metrics", matchIfMissing = true)
    static class Metrics {

        /**
         * Records timeout, retry and idempotency outcomes.
         *
         * @param registry the registry
         * @return the recorder
         */
        @Bean
        @ConditionalOnMissingBean
        ResilienceMetrics resilienceMetrics(MeterRegistry registry) {
            return new ResilienceMetrics(registry);
        }

        /**
         * Times the idempotency store's operations.
         *
         * @param registry the registry
         * @return the decorator
         */
        @Bean
        @ConditionalOnMissingBean
        IdempotencyStoreDecorator meteredIdempotencyStore(MeterRegistry registry) {
            return store -> new MeteredIdempotencyStore(store, registry);
        }

        /**
         * Hits, misses, size and evictions of the near cache, when it is on.
         *
         * @param activation the executor once in use, whose store may be the near cache
         * @return the binder
         */
        @Bean
        @ConditionalOnMissingBean(name = "idempotencyNearCacheMetrics")
        @ConditionalOnClass(name = "com.github.benmanes.caffeine.cache.Caffeine")
        @ConditionalOnBooleanProperty("resilience.idempotent.near-cache.enabled")
        MeterBinder idempotencyNearCacheMetrics(ObjectProvider<IdempotencyActivation> activation) {
            // bound when the store comes to exist, which binding must not cause
            return registry -> activation.ifAvailable(found -> found.whenActive(active -> {
                if (active.executor().store() instanceof NearCacheIdempotencyStore nearCache) {
                    CaffeineCacheMetrics.monitor(registry, nearCache.cache(), NEAR_CACHE_METRICS);
                }
            }));
        }
    }

    /**
     * Micrometer Observation: retries, hedges, idempotency outcomes, timeouts and breaker refusals
     * as events on the current observation.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.observation.ObservationRegistry")
    @ConditionalOnBean(ObservationRegistry.class)
    static class Observations {

        /**
         * Adds events to the current observation.
         *
         * @param registry the observation registry
         * @return the event source
         */
        @Bean
        @ConditionalOnMissingBean
        ObservationEvents resilienceObservationEvents(ObservationRegistry registry) {
            return new ObservationEvents(registry);
        }
    }

    /**
     * Each {@code @Retry} attempt an observation of its own, where a tracer makes a span of it.
     * Without one, an observation per attempt would only feed a timer the starter's own meters
     * already cover ({@code resilience.retry.calls}, {@code resilience.retry.attempts}), at a timer
     * sample per attempt: the attempts run as they are.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.micrometer.observation.ObservationRegistry", "io.micrometer.tracing.Tracer"})
    @ConditionalOnBean(ObservationRegistry.class)
    static class AttemptObservations {

        /**
         * Makes each {@code @Retry} attempt an observation when the application has a tracer
         * that records spans (not Micrometer's no-op one).
         *
         * @param registry the observation registry
         * @param tracers the application's tracers; looked up here, once the context's beans
         *     are all defined, so the tracing auto-configuration's order does not matter
         * @return the attempts' tracing, or {@link AttemptTracing#NONE}
         */
        @Bean
        @ConditionalOnMissingBean(AttemptTracing.class)
        AttemptTracing resilienceAttemptTracing(ObservationRegistry registry, ObjectProvider<Tracer> tracers) {
            boolean spans = tracers.orderedStream().anyMatch(tracer -> tracer != Tracer.NOOP);
            return spans ? new ObservedAttempts(registry) : AttemptTracing.NONE;
        }
    }

    /** Actuator: endpoint and advisor. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.actuate.endpoint.annotation.Endpoint",
        "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"})
    static class Actuator {

        /**
         * The advisor (T-2, R-3, R-1 warnings).
         *
         * @param timeouts the timeout methods
         * @param retries the retry methods
         * @param metrics the timers, when metrics are on
         * @param properties the bound properties
         * @return the advisor
         */
        @Bean
        @ConditionalOnMissingBean
        ResilienceSettingsInspector resilienceSettingsInspector(ObjectProvider<TimeoutOperationSource> timeouts,
                ObjectProvider<RetryOperationSource> retries, ObjectProvider<ResilienceMetrics> metrics,
                ObservabilityProperties properties) {
            return new ResilienceSettingsInspector(timeouts.getIfAvailable(), retries.getIfAvailable(),
                    metrics.getIfAvailable(), properties.getAdvisorMinSamples());
        }

        /**
         * {@code /actuator/resilience}.
         *
         * @param timeouts the timeout methods
         * @param retries the retry methods
         * @param idempotents the idempotent methods
         * @param idempotency the idempotency store once in use
         * @param retryRegistry the budgets
         * @param advisor the advisor
         * @param validator the annotations that cannot take effect
         * @param changes when the settings in force were applied
         * @param sections further sections, such as the circuit breakers'
         * @return the endpoint
         */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint
        ResilienceEndpoint resilienceEndpoint(ObjectProvider<TimeoutOperationSource> timeouts,
                ObjectProvider<RetryOperationSource> retries, ObjectProvider<IdempotentOperationSource> idempotents,
                ObjectProvider<IdempotencyActivation> idempotency, ObjectProvider<RetryConfigRegistry> retryRegistry,
                ObjectProvider<ResilienceSettingsInspector> advisor, ObjectProvider<AnnotatedMethodValidator> validator,
                ObjectProvider<SettingsChanges> changes, ObjectProvider<ResilienceReportSection> sections) {
            return new ResilienceEndpoint(timeouts, retries, idempotents, idempotency, retryRegistry, advisor, validator,
                    changes, sections);
        }
    }
}
