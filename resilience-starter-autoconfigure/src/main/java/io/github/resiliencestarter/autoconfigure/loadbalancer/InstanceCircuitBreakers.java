package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.circuit.CircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitPermit;
import io.github.resiliencestarter.circuit.InstanceCircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.LoadBalancerLifecycle;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.Response;

/**
 * One circuit breaker per instance of a service whose breaker settings say {@code per-instance}:
 * each load-balanced request to the chosen instance takes a permit of the breaker
 * {@code service[host:port]} before it is sent (an open one refuses it with
 * {@link InstanceCircuitOpenException}, which a retry takes elsewhere) and reports its outcome
 * when it ends. With
 * {@link AvoidOpenCircuitsSupplier} the balancer leaves out instances whose circuit is open.
 */
public class InstanceCircuitBreakers implements LoadBalancerLifecycle<Object, Object, ServiceInstance> {

    private final CircuitRegistry registry;

    /**
     * The permit of each request in flight, by the identity of the request object both callbacks
     * receive: concurrent requests to the same URL are equal by {@code equals}.
     */
    private final Map<Request<?>, CircuitPermit> inFlight = Collections.synchronizedMap(new IdentityHashMap<>());

    /**
     * Creates the lifecycle.
     *
     * @param registry the breakers
     */
    public InstanceCircuitBreakers(CircuitRegistry registry) {
        this.registry = registry;
    }

    @Override
    public boolean supports(Class requestContextClass, Class responseClass, Class serverTypeClass) {
        return ServiceInstance.class.isAssignableFrom(serverTypeClass);
    }

    @Override
    public void onStart(Request<Object> request) {
    }

    @Override
    public void onStartRequest(Request<Object> request, Response<ServiceInstance> lbResponse) {
        ServiceInstance instance = lbResponse.hasServer() ? lbResponse.getServer() : null;
        if (instance == null || !registry.config(instance.getServiceId()).perInstance()) {
            return;
        }
        try {
            inFlight.put(request, registry.guard(instance.getServiceId(),
                    AvoidFailedInstancesSupplier.target(instance)).acquire());
        } catch (CircuitOpenException refused) {
            // this instance only: nothing was sent, so a retry may take the request to another one
            throw new InstanceCircuitOpenException(refused);
        }
    }

    @Override
    public void onComplete(CompletionContext<Object, ServiceInstance, Object> completion) {
        @Nullable CircuitPermit permit = inFlight.remove(completion.getLoadBalancerRequest());
        if (permit == null) {
            return;
        }
        Throwable failure = LoadBalancedOutcomes.failure(completion);
        if (failure == null) {
            permit.succeeded();
        } else {
            permit.failed(failure);
        }
    }
}
