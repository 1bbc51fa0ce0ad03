package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.circuit.CircuitBreakerAutoConfiguration;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.context.annotation.Bean;

/**
 * Per-instance circuit breakers with Spring Cloud LoadBalancer: for a service whose breaker
 * settings say {@code per-instance: true}, each instance has its own breaker
 * ({@link InstanceCircuitBreakers}) and the balancer leaves out the open ones
 * ({@link AvoidOpenCircuitsSupplier}), so calls and their retries go to the instances that answer.
 */
@AutoConfiguration(after = CircuitBreakerAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@ConditionalOnClass(name = {"org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier",
    "io.github.resilience4j.circuitbreaker.CircuitBreaker"})
@ConditionalOnBean(CircuitRegistry.class)
@LoadBalancerClients(defaultConfiguration = InstanceCircuitBreakerLoadBalancerConfiguration.class)
public class InstanceCircuitBreakerAutoConfiguration {

    /**
     * The breakers of the instances, found by every client context among its parent's beans.
     *
     * @param registry the breakers
     * @return the lifecycle
     */
    @Bean
    @ConditionalOnMissingBean
    public InstanceCircuitBreakers instanceCircuitBreakers(CircuitRegistry registry) {
        return new InstanceCircuitBreakers(registry);
    }
}
