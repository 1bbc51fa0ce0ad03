package io.github.resiliencestarter.autoconfigure.tuning;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryConfigCustomizer;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutConfigCustomizer;
import io.github.resiliencestarter.retry.RetryRule;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.ReflectionUtils;

/**
 * Live tuning of timeouts and retries: the {@link ResilienceSettings} bean, and a listener that
 * reloads it when Spring Cloud reports changed {@code resilience.*} keys.
 */
@AutoConfiguration(after = {TimeoutAutoConfiguration.class, RetryAutoConfiguration.class})
@ConditionalOnResilienceEnabled
public class LiveTuningAutoConfiguration {

    /** Spring Cloud's event after {@code /actuator/refresh}, named so no Spring Cloud type is needed. */
    static final String ENVIRONMENT_CHANGE_EVENT = "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

    /**
     * The settings in force, reloadable.
     *
     * @param environment where the properties are bound from
     * @param timeouts the {@code @Timeout} methods
     * @param retries the {@code @Retry} methods
     * @param timeoutCustomizers named timeout instances adjusted in code
     * @param retryCustomizers named retry instances adjusted in code
     * @param retryRules extra classification rules
     * @param groups further groups of settings (the circuit breakers')
     * @return the settings
     */
    @Bean
    @ConditionalOnMissingBean
    public ResilienceSettings resilienceSettings(Environment environment,
            ObjectProvider<TimeoutOperationSource> timeouts, ObjectProvider<RetryOperationSource> retries,
            ObjectProvider<TimeoutConfigCustomizer> timeoutCustomizers,
            ObjectProvider<RetryConfigCustomizer> retryCustomizers, ObjectProvider<RetryRule> retryRules,
            ObjectProvider<TunableGroup> groups) {
        return new ResilienceSettings(environment, timeouts, retries, timeoutCustomizers, retryCustomizers,
                retryRules, groups);
    }

    /** Reloads on Spring Cloud's environment change events that touch {@code resilience.*}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = ENVIRONMENT_CHANGE_EVENT)
    static class SpringCloudRefresh {

        @Bean
        @ConditionalOnMissingBean(name = "resilienceSettingsRefresh")
        ApplicationListener<ApplicationEvent> resilienceSettingsRefresh(ObjectProvider<ResilienceSettings> settings) {
            return event -> {
                if (event.getClass().getName().equals(ENVIRONMENT_CHANGE_EVENT)
                        && changedKeys(event).stream().anyMatch(key -> String.valueOf(key).startsWith("resilience."))) {
                    settings.ifAvailable(ResilienceSettings::reload);
                }
            };
        }

        /** The event's {@code getKeys()}, read by name so that no Spring Cloud type is linked. */
        private static Collection<?> changedKeys(ApplicationEvent event) {
            Method getKeys = ReflectionUtils.findMethod(event.getClass(), "getKeys");
            Object keys = getKeys != null ? ReflectionUtils.invokeMethod(getKeys, event) : null;
            return keys instanceof Collection<?> collection ? collection : List.of();
        }
    }
}
