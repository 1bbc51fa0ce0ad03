package io.github.resiliencestarter.autoconfigure.timeout;

import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.propagation.ApplicationPropagators;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.spring.aop.OperationGenerations;
import io.github.resiliencestarter.spring.aop.ResilienceAdvisorOrder;
import io.github.resiliencestarter.spring.aop.ResilienceAnnotationAdvisor;
import io.github.resiliencestarter.spring.aop.TimeoutInterceptor;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import io.github.resiliencestarter.timeout.TimeoutConfigRegistry;
import io.github.resiliencestarter.timeout.TimeoutObserver;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import io.github.resiliencestarter.timeout.support.BoundedVirtualThreadExecutor;
import io.github.resiliencestarter.timeout.support.TimeoutExecutors;
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
import org.springframework.core.env.Environment;

/**
 * Applies {@code @Timeout}: the registry of settings from {@link TimeoutProperties}, the shared
 * runtime (bounded executor, interrupt timer), the per-method operation source and the advisor.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@ConditionalOnBooleanProperty(name = "resilience.timeout.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TimeoutProperties.class)
public class TimeoutAutoConfiguration {

    /**
     * Default and named settings.
     *
     * @param properties the bound properties
     * @param customizers adjust named instances in code
     * @return the registry
     */
    @Bean
    @ConditionalOnMissingBean
    public TimeoutConfigRegistry timeoutConfigRegistry(TimeoutProperties properties,
            ObjectProvider<TimeoutConfigCustomizer> customizers) {
        return properties.toRegistry(customizers.orderedStream().toList());
    }

    /**
     * The executor and timer shared by every timeout; drained gracefully on shutdown.
     *
     * @param properties the bound properties
     * @param propagators extra thread-bound state to carry to workers
     * @param observer hear outcomes (metrics), when defined
     * @return the runtime
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public TimeoutRuntime timeoutRuntime(TimeoutProperties properties, ObjectProvider<ContextPropagator> propagators,
            ObjectProvider<TimeoutObserver> observer, Environment environment) {
        TimeoutProperties.Executor executor = properties.getExecutor();
        // Boot's own switch: with virtual threads on (Java 21+), OFFLOAD work runs on them, bounded by max-size
        boolean virtual = environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false)
                && BoundedVirtualThreadExecutor.isSupported();
        return TimeoutRuntime.builder()
                .executor(virtual ? BoundedVirtualThreadExecutor.create(executor.getThreadNamePrefix(),
                        executor.getMaxSize())
                        : TimeoutExecutors.newBoundedExecutor(executor.getThreadNamePrefix(), executor.getCoreSize(),
                                executor.getMaxSize(), executor.getQueueCapacity(), executor.getKeepAlive()))
                .propagator(ApplicationPropagators.of(propagators))
                .awaitTermination(executor.getAwaitTermination())
                .observer(TimeoutObserver.composite(observer.orderedStream().toList()))
                .build();
    }

    /**
     * Resolves {@code @Timeout} per method.
     *
     * @param registry the settings
     * @param runtime the runtime
     * @param beanFactory resolves placeholders in annotation values
     * @return the source
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public TimeoutOperationSource timeoutOperationSource(TimeoutConfigRegistry registry, TimeoutRuntime runtime,
            OperationGenerations generations, ConfigurableBeanFactory beanFactory) {
        return new TimeoutOperationSource(registry, runtime, new EmbeddedValueResolver(beanFactory), generations);
    }

    /**
     * The advisor that applies {@code @Timeout}.
     *
     * @param source the per-method settings, looked up on first use
     * @return the advisor
     */
    @Bean
    @ConditionalOnMissingBean(name = "timeoutAdvisor")
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static ResilienceAnnotationAdvisor timeoutAdvisor(ObjectProvider<TimeoutOperationSource> source) {
        return new ResilienceAnnotationAdvisor(Timeout.class, () -> new TimeoutInterceptor(source.getObject()),
                ResilienceAdvisorOrder.TIMEOUT);
    }
}
