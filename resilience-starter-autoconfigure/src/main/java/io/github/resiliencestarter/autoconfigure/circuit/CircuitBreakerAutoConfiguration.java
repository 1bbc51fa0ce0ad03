package io.github.resiliencestarter.autoconfigure.circuit;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.circuit.CircuitObserver;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.retry.RetryRule;
import io.github.resiliencestarter.spring.actuate.CircuitBreakerReport;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodResolver;
import io.github.resiliencestarter.spring.aop.AnnotatedMethods;
import io.github.resiliencestarter.spring.aop.CircuitBreakerInterceptor;
import io.github.resiliencestarter.spring.aop.CircuitBreakerOperationSource;
import io.github.resiliencestarter.spring.aop.InvalidDeclarationException;
import io.github.resiliencestarter.spring.aop.ResilienceAdvisorOrder;
import io.github.resiliencestarter.spring.aop.ResilienceAnnotationAdvisor;
import io.github.resiliencestarter.spring.retry.SpringRetryRules;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * Applies {@code @CircuitBreaker}: breakers from {@link CircuitBreakerProperties}, classified with
 * the retry rules, and the advisor ordered inside {@code @Retry} and outside
 * {@code @Transactional}. Needs Resilience4j's circuit breaker on the class path; without it an
 * annotated method stops the start, naming the dependency.
 */
@AutoConfiguration(after = {ResilienceAutoConfiguration.class, RetryAutoConfiguration.class})
@ConditionalOnResilienceEnabled
@ConditionalOnBooleanProperty(name = "resilience.circuit-breaker.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CircuitBreakerProperties.class)
public class CircuitBreakerAutoConfiguration {

    /** Resilience4j's state machine, named so the condition needs no Resilience4j type. */
    static final String ENGINE = "io.github.resilience4j.circuitbreaker.CircuitBreaker";

    /** The breakers and their advisor, with the engine present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = ENGINE)
    static class Breakers {

        /**
         * Classification of Spring's exception types (5xx, 4xx, data access), when retries are
         * switched off and did not define it: the breakers need it all the same.
         *
         * @return the rules
         */
        @Bean
        @ConditionalOnMissingBean
        SpringRetryRules springRetryRules() {
            return new SpringRetryRules(TimeSource.SYSTEM);
        }

        /**
         * The breakers by name.
         *
         * @param properties the bound properties
         * @param rules classification rules, asked before the defaults
         * @param customizers adjust named breakers in code
         * @param observers hear calls and state changes (the metrics)
         * @return the registry
         */
        @Bean
        @ConditionalOnMissingBean
        CircuitRegistry circuitRegistry(CircuitBreakerProperties properties, ObjectProvider<RetryRule> rules,
                ObjectProvider<CircuitBreakerConfigCustomizer> customizers, ObjectProvider<CircuitObserver> observers) {
            CircuitBreakerConfig defaults = properties.defaults(rules.orderedStream().toList());
            return CircuitRegistry.of(defaults, properties.named(defaults, customizers.orderedStream().toList()),
                    CircuitObserver.composite(observers.orderedStream().toList()));
        }

        /**
         * Resolves {@code @CircuitBreaker} per method.
         *
         * @param registry the breakers
         * @return the source
         */
        @Bean
        @ConditionalOnMissingBean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        CircuitBreakerOperationSource circuitBreakerOperationSource(CircuitRegistry registry) {
            return new CircuitBreakerOperationSource(registry);
        }

        /**
         * Live tuning of the breakers' settings.
         *
         * @param registry the breakers
         * @param rules classification rules
         * @param customizers adjust named breakers in code
         * @return the tunable group
         */
        @Bean
        @ConditionalOnMissingBean
        CircuitBreakerTuning circuitBreakerTuning(CircuitRegistry registry, ObjectProvider<RetryRule> rules,
                ObjectProvider<CircuitBreakerConfigCustomizer> customizers) {
            return new CircuitBreakerTuning(registry, rules, customizers);
        }

        /**
         * The advisor that applies {@code @CircuitBreaker}.
         *
         * @param source the per-method settings, looked up on first use
         * @return the advisor
         */
        @Bean
        @ConditionalOnMissingBean(name = "circuitBreakerAdvisor")
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static ResilienceAnnotationAdvisor circuitBreakerAdvisor(ObjectProvider<CircuitBreakerOperationSource> source) {
            return new ResilienceAnnotationAdvisor(CircuitBreaker.class,
                    () -> new CircuitBreakerInterceptor(source.getObject()), ResilienceAdvisorOrder.CIRCUIT_BREAKER);
        }
    }

    /** The breakers' section of {@code /actuator/resilience}, with Actuator present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {ENGINE, "org.springframework.boot.actuate.endpoint.annotation.Endpoint"})
    static class Report {

        /**
         * Lists the breakers in the endpoint.
         *
         * @param source the {@code @CircuitBreaker} methods
         * @return the section
         */
        @Bean
        @ConditionalOnMissingBean
        CircuitBreakerReport circuitBreakerReport(CircuitBreakerOperationSource source) {
            return new CircuitBreakerReport(source);
        }
    }

    /** Without the engine: an annotated method stops the start, saying which dependency to add. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(ENGINE)
    static class NoEngine {

        @Bean
        @ConditionalOnMissingBean(name = "circuitBreakerWithoutEngine")
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        AnnotatedMethodResolver circuitBreakerWithoutEngine() {
            return new AnnotatedMethodResolver() {
                @Override
                public Class<? extends Annotation> annotationType() {
                    return CircuitBreaker.class;
                }

                @Override
                public void resolve(Method method, Class<?> targetClass) {
                    throw new InvalidDeclarationException("@CircuitBreaker on "
                            + AnnotatedMethods.describe(method, targetClass) + " needs Resilience4j's circuit breaker, "
                            + "which is not on the class path.", "Add the dependency "
                            + "io.github.resilience4j:resilience4j-circuitbreaker (the version of the starter's "
                            + "docs/dependencies.md), or remove the annotation.");
                }
            };
        }
    }
}
