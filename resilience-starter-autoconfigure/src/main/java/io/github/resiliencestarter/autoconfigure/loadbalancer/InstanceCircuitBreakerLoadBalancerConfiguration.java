package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.circuit.CircuitRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registered in every load-balancer client context (as a default configuration): wraps the
 * instance list supplier the application's configuration built so that instances whose
 * per-instance breaker is open are left out.
 */
@Configuration(proxyBeanMethods = false)
public class InstanceCircuitBreakerLoadBalancerConfiguration {

    /**
     * Wraps each service's instance supplier.
     *
     * @param registry the breakers (from the application context)
     * @return the post-processor
     */
    @Bean
    @ConditionalOnMissingBean(name = "avoidOpenCircuitsPostProcessor")
    static BeanPostProcessor avoidOpenCircuitsPostProcessor(ObjectProvider<CircuitRegistry> registry) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                CircuitRegistry breakers = registry.getIfAvailable();
                if (breakers != null && bean instanceof ServiceInstanceListSupplier supplier
                        && !(bean instanceof AvoidOpenCircuitsSupplier)) {
                    return new AvoidOpenCircuitsSupplier(supplier, breakers);
                }
                return bean;
            }
        };
    }
}
