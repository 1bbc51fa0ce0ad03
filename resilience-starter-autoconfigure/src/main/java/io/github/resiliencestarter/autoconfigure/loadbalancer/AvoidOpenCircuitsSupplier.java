package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitSnapshot;
import io.github.resiliencestarter.circuit.CircuitState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import reactor.core.publisher.Flux;

/**
 * Leaves out of a service's instance list the instances whose per-instance breaker refuses every
 * call now (open with its probe time ahead, or forced open), so the balancer,
 * and a retry, choose another; once the probe time comes the instance is offered again and its
 * breaker lets the probes through. A ramping instance is offered with the share its ramp admits.
 * With every instance left out the full list stays, and the breakers refuse at the call.
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
        List<ServiceInstance> offered = new ArrayList<>(instances.size());
        for (ServiceInstance instance : instances) {
            CircuitSnapshot breaker = registry.guard(getServiceId(), AvoidFailedInstancesSupplier.target(instance))
                    .snapshot();
            // half-open stays offered: its probes must arrive for it to decide
            boolean open = breaker.state() == CircuitState.FORCED_OPEN
                    || (breaker.state() == CircuitState.OPEN && !breaker.untilProbe().isZero());
            // a recovering instance is offered with the share its ramp admits, so the others take
            // the rest instead of the instance refusing it
            boolean rampedOut = breaker.state() == CircuitState.RAMPING
                    && ThreadLocalRandom.current().nextDouble() >= breaker.admittedShare();
            if (!open && !rampedOut) {
                offered.add(instance);
            }
        }
        return offered.isEmpty() ? instances : offered;
    }
}
