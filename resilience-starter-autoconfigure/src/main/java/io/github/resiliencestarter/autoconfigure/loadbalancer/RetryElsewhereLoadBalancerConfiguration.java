package io.github.resiliencestarter.autoconfigure.loadbalancer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registered in every load-balancer client context (as the default configuration): wraps the
 * instance list supplier that the application's own configuration built, whatever it is, so that
 * discovery, caching, zone preference and health checks stay as configured.
 */
@Configuration(proxyBeanMethods = false)
public class RetryElsewhereLoadBalancerConfiguration {

    /**
     * Wraps each service's instance supplier.
     *
     * @param listener hears avoided instances (from the application context)
     * @return the post-processor
     */
    @Bean
    @ConditionalOnMissingBean(name = "avoidFailedInstancesPostProcessor")
    static BeanPostProcessor avoidFailedInstancesPostProcessor(ObjectProvider<AvoidedInstanceListener> listener) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof ServiceInstanceListSupplier supplier
                        && !(bean instanceof AvoidFailedInstancesSupplier)) {
                    return new AvoidFailedInstancesSupplier(supplier,
                            listener.getIfAvailable(() -> AvoidedInstanceListener.NONE));
                }
                return bean;
            }
        };
    }
}
