package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.circuit.CircuitRegistry;
import java.util.ArrayList;
import java.util.List;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import reactor.core.publisher.Flux;

/**
 * Leaves out of a service's instance list the instances whose per-instance breaker refuses every
 * call now (open, its probe time ahead), so the balancer, and a retry, choose another; once the
 * probe time comes the instance is offered again and its breaker lets the probes through. With
 * every instance open the full list stays, and the breakers refuse at the call.
 */
public class AvoidOpenCircuitsSupplier extends DelegatingServiceInstanceListSupplier {

    private final CircuitRegistry registry;

    /**
     * Wraps a supplier.
     *
     * @param delegate the instances as the application's balancer configuration provides them
     * @param registry the breakers
     */
    public AvoidOpenCircuitsSupplier(ServiceInstanceListSupplier delegate, CircuitRegistry registry) {
        super(delegate);
        this.registry = registry;
    }

    @Override
    public Flux<List<ServiceInstance>> get() {
        return delegate.get().map(this::avoidOpen);
    }

    @Override
    public Flux<List<ServiceInstance>> get(Request request) {
        return delegate.get(request).map(this::avoidOpen);
    }

    private List<ServiceInstance> avoidOpen(List<ServiceInstance> instances) {
        if (!registry.config(getServiceId()).perInstance()) {
            return instances;
        }
        List<ServiceInstance> closed = new ArrayList<>(instances.size());
        for (ServiceInstance instance : instances) {
            if (!registry.guard(getServiceId(), AvoidFailedInstancesSupplier.target(instance)).refusesAll()) {
                closed.add(instance);
            }
        }
        return closed.isEmpty() ? instances : closed;
    }
}
