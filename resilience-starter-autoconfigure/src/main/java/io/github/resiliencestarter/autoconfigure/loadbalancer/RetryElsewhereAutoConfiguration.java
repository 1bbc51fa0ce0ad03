package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Retry elsewhere with Spring Cloud LoadBalancer (rule R-5): a retried call records the instances
 * its attempts failed on ({@link FailedInstanceRecorder}), and every load-balanced client leaves
 * them out of the next attempt's choice ({@link AvoidFailedInstancesSupplier}). Off with
 * {@code resilience.retry.avoid-failed-instances=false}.
 */
@AutoConfiguration
@ConditionalOnResilienceEnabled
@ConditionalOnClass(name = "org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier")
@ConditionalOnBooleanProperty(name = "resilience.retry.avoid-failed-instances", matchIfMissing = true)
@LoadBalancerClients(defaultConfiguration = RetryElsewhereLoadBalancerConfiguration.class)
public class RetryElsewhereAutoConfiguration {

    /** Micrometer counter of avoided instances, tagged {@code service}. */
    public static final String AVOIDED_INSTANCES = "resilience.retry.avoided_instances";

    /**
     * Records the instance each failed load-balanced request went to.
     *
     * @return the lifecycle, found by every client context among its parent's beans
     */
    @Bean
    @ConditionalOnMissingBean
    public FailedInstanceRecorder failedInstanceRecorder() {
        return new FailedInstanceRecorder();
    }

    /** Counts avoided instances when Micrometer is there. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        AvoidedInstanceListener avoidedInstanceCounter(ObjectProvider<MeterRegistry> registry) {
            return (serviceId, instance) -> registry.ifAvailable(meters -> meters
                    .counter(AVOIDED_INSTANCES, "service", serviceId).increment());
        }
    }
}
