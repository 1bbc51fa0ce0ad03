package io.github.resiliencestarter.autoconfigure.retry;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.retry.AttemptTracing;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.retry.RetryObserver;
import io.github.resiliencestarter.retry.RetryRule;
import io.github.resiliencestarter.spring.aop.IdempotencyMarker;
import io.github.resiliencestarter.spring.aop.OperationGenerations;
import io.github.resiliencestarter.spring.aop.ResilienceAdvisorOrder;
import io.github.resiliencestarter.spring.aop.ResilienceAnnotationAdvisor;
import io.github.resiliencestarter.spring.aop.RetryInterceptor;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.spring.aop.RetrySafetyGate;
import io.github.resiliencestarter.spring.retry.SpringRetryRules;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.lang.annotation.Annotation;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

/**
 * Applies {@code @Retry}: policies and budgets from {@link RetryProperties}, Spring's exception
 * classification, the startup safety gate and the advisor, ordered inside {@code @Timeout} and
 * {@code @Idempotent} and outside {@code @Transactional}.
 */
@AutoConfiguration(after = {ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class})
@ConditionalOnResilienceEnabled
@ConditionalOnBooleanProperty(name = "resilience.retry.enabled", matchIfMissing = true)
@EnableConfigurationProperties(RetryProperties.class)
public class RetryAutoConfiguration {

    /**
     * Classification of Spring's exception types.
     *
     * @return the rules
     */
    @Bean
    @ConditionalOnMissingBean
    public SpringRetryRules springRetryRules() {
        return new SpringRetryRules(TimeSource.SYSTEM);
    }

    /**
     * Default and named policies, with a budget per name.
     *
     * @param properties the bound properties
     * @param rules classification rules, asked before the defaults
     * @param customizers adjust named instances in code
     * @return the registry
     */
    @Bean
    @ConditionalOnMissingBean
    public RetryConfigRegistry retryConfigRegistry(RetryProperties properties, ObjectProvider<RetryRule> rules,
            ObjectProvider<RetryConfigCustomizer> customizers) {
        return properties.toRegistry(rules.orderedStream().toList(), customizers.orderedStream().toList());
    }

    /**
     * The startup check that retried methods are safe to repeat.
     *
     * @param properties the bound properties
     * @param idempotencyMarkers annotations that make a method idempotent
     * @return the gate
     */
    @Bean
    @ConditionalOnMissingBean
    public RetrySafetyGate retrySafetyGate(RetryProperties properties,
            ObjectProvider<IdempotencyMarker> idempotencyMarkers) {
        List<Class<? extends Annotation>> markers = idempotencyMarkers.orderedStream()
                .<Class<? extends Annotation>>map(IdempotencyMarker::annotationType).toList();
        return new RetrySafetyGate(properties.getSafetyGate(), markers);
    }

    /**
     * Resolves {@code @Retry} per method.
     *
     * @param registry the policies
     * @param gate the safety gate
     * @param properties the bound properties
     * @param timeoutRuntime the runtime for per-attempt timeouts, when timeouts are enabled
     * @param observer hears retries, when one is defined
     * @param generations the generations shared with the other tunable sources
     * @param beanFactory resolves placeholders in annotation values
     * @param attemptTracing gives each attempt its span, when one is defined
     * @return the source
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public RetryOperationSource retryOperationSource(RetryConfigRegistry registry, RetrySafetyGate gate,
            RetryProperties properties, ObjectProvider<TimeoutRuntime> timeoutRuntime,
            ObjectProvider<RetryObserver> observer, OperationGenerations generations,
            ConfigurableBeanFactory beanFactory, ObjectProvider<AttemptTracing> attemptTracing) {
        return new RetryOperationSource(registry, gate, properties.getMaxAttemptsCap(),
                properties.effectiveJitterFactor(), timeoutRuntime.getIfAvailable(),
                RetryObserver.composite(observer.orderedStream().toList()), new EmbeddedValueResolver(beanFactory),
                generations, attemptTracing.getIfAvailable(() -> AttemptTracing.NONE));
    }

    /**
     * The advisor that applies {@code @Retry}.
     *
     * @param source the per-method settings, looked up on first use
     * @return the advisor
     */
    @Bean
    @ConditionalOnMissingBean(name = "retryAdvisor")
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static ResilienceAnnotationAdvisor retryAdvisor(ObjectProvider<RetryOperationSource> source) {
        return new ResilienceAnnotationAdvisor(Retry.class, () -> new RetryInterceptor(source.getObject()),
                ResilienceAdvisorOrder.RETRY);
    }
}
