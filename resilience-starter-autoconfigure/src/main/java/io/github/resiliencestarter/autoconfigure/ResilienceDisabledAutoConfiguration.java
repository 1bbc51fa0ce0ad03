package io.github.resiliencestarter.autoconfigure;

import io.github.resiliencestarter.autoconfigure.retry.RetryConfigCustomizer;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutConfigCustomizer;
import io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings;
import io.github.resiliencestarter.autoconfigure.tuning.TunableGroup;
import io.github.resiliencestarter.retry.RetryRule;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import io.github.resiliencestarter.spring.http.DerivedIdempotencyKeyInterceptor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The kill switch, {@code resilience.enabled=false}: no advisor, filter or store is created, but
 * the beans application code injects stay, as pass-throughs, so that switching the starter off
 * during an incident never stops an application from starting.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "resilience.enabled", havingValue = false)
public class ResilienceDisabledAutoConfiguration {

    /**
     * The derived-key interceptor: it adds a key only inside an {@code @Idempotent} execution, and
     * with the starter off there is none, so it passes every request through unchanged.
     *
     * @return the interceptor
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnClass(name = "org.springframework.http.client.ClientHttpRequestInterceptor")
    public DerivedIdempotencyKeyInterceptor derivedIdempotencyKeyInterceptor() {
        return new DerivedIdempotencyKeyInterceptor();
    }

    /**
     * Live tuning with nothing to tune: {@link ResilienceSettings#reload()} binds nothing and
     * changes nothing.
     *
     * @param environment the environment
     * @param beanFactory where the (absent) operation sources would be
     * @return the settings
     */
    @Bean
    @ConditionalOnMissingBean
    public ResilienceSettings resilienceSettings(Environment environment, BeanFactory beanFactory) {
        return new ResilienceSettings(environment, beanFactory.getBeanProvider(TimeoutOperationSource.class),
                beanFactory.getBeanProvider(RetryOperationSource.class),
                beanFactory.getBeanProvider(TimeoutConfigCustomizer.class),
                beanFactory.getBeanProvider(RetryConfigCustomizer.class), beanFactory.getBeanProvider(RetryRule.class),
                beanFactory.getBeanProvider(TunableGroup.class));
    }
}
