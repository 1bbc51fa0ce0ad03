package io.github.resiliencestarter.autoconfigure.propagation;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.micrometer.ContextSnapshotPropagator;
import io.github.resiliencestarter.micrometer.TraceContextAccessor;
import io.github.resiliencestarter.spring.jdbc.DeadlineBoundDataSourcePostProcessor;
import io.github.resiliencestarter.spring.redis.DeadlineBoundRedisConnectionFactoryPostProcessor;
import io.github.resiliencestarter.spring.security.SecurityContextPropagator;
import io.github.resiliencestarter.spring.task.TraceContextTaskDecorator;
import io.micrometer.context.ContextRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;

/**
 * Carries the budget and the trace context inside the service: a task decorator for Boot's task
 * executor ({@code @Async} included) and, opt-in, JDBC statements bounded by the remaining budget.
 */
@AutoConfiguration(before = TaskExecutionAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@EnableConfigurationProperties(PropagationProperties.class)
public class PropagationAutoConfiguration {

    /**
     * Runs tasks with the submitter's trace context, MDC and propagated thread-bound state
     * (request attributes, security context).
     *
     * @param propagators the application's propagators
     * @return the decorator
     */
    @Bean
    @ConditionalOnMissingBean(TaskDecorator.class)
    @ConditionalOnBooleanProperty(name = "resilience.propagation.task-executors", matchIfMissing = true)
    public TraceContextTaskDecorator traceContextTaskDecorator(ObjectProvider<ContextPropagator> propagators) {
        return new TraceContextTaskDecorator(ApplicationPropagators.of(propagators));
    }

    /**
     * Bounds every DataSource's statements by the remaining budget.
     *
     * @return the post-processor
     */
    @Bean
    @ConditionalOnClass(name = "org.springframework.jdbc.datasource.DelegatingDataSource")
    @ConditionalOnBooleanProperty(name = "resilience.propagation.bound-jdbc-statements")
    @ConditionalOnMissingBean
    public static DeadlineBoundDataSourcePostProcessor deadlineBoundDataSourcePostProcessor() {
        return new DeadlineBoundDataSourcePostProcessor();
    }

    /**
     * Refuses Redis commands once the budget is spent.
     *
     * @return the post-processor
     */
    @Bean
    @ConditionalOnClass(name = "org.springframework.data.redis.connection.RedisConnectionFactory")
    @ConditionalOnBooleanProperty(name = "resilience.propagation.bound-redis-commands")
    @ConditionalOnMissingBean
    public static DeadlineBoundRedisConnectionFactoryPostProcessor deadlineBoundRedisConnectionFactoryPostProcessor() {
        return new DeadlineBoundRedisConnectionFactoryPostProcessor();
    }

    /** Micrometer context-propagation, when present: the trace context travels with its snapshots. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.context.ContextRegistry")
    static class ContextPropagation {

        /**
         * Registers the trace context with Micrometer's context registry.
         *
         * @return the registered accessor
         */
        @Bean
        @ConditionalOnMissingBean
        TraceContextAccessor traceContextAccessor() {
            TraceContextAccessor accessor = new TraceContextAccessor();
            ContextRegistry.getInstance().registerThreadLocalAccessor(accessor);
            return accessor;
        }

        /**
         * Carries what context-propagation knows of (the current observation, and with it the
         * tracer's span and its MDC entries) to the starter's workers and the task executors.
         *
         * @return the propagator
         */
        @Bean
        @ConditionalOnMissingBean
        ContextSnapshotPropagator contextSnapshotPropagator() {
            return new ContextSnapshotPropagator();
        }
    }

    /** Spring Security's context on timeout workers and task executors, when Spring Security is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
    static class SecurityContextPropagation {

        /**
         * Carries the caller's security context to workers.
         *
         * @return the propagator
         */
        @Bean
        @ConditionalOnMissingBean
        SecurityContextPropagator securityContextPropagator() {
            return new SecurityContextPropagator();
        }
    }
}
