package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.circuit.CircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitPermit;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.InstanceCircuitOpenException;
import io.github.resiliencestarter.context.FailedTargets;
import io.github.resiliencestarter.context.TraceContextHolder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

    /** Permits of requests whose end was never reported are given back after this long. */
    static final long ABANDONED_NANOS = TimeUnit.MINUTES.toNanos(5);

    /**
     * A closed breaker of an instance no request has used for this long is removed, with its meters:
     * the instance has most likely left (a replaced pod keeps no address).
     */
    static final long IDLE_NANOS = TimeUnit.MINUTES.toNanos(10);

    /**
     * The permit of each request in flight, by the identity of the request object both callbacks
     * receive (concurrent requests to the same URL are equal by {@code equals}). A reactive client
     * never reports a cancelled exchange: such entries are swept after {@link #ABANDONED_NANOS}, so
     * neither the map nor a half-open breaker's probes stay taken.
     */
    private final Map<Request<?>, InFlight> inFlight = Collections.synchronizedMap(new IdentityHashMap<>());

    private final AtomicInteger started = new AtomicInteger();

    /** One request's permit and when it was taken. */
    private record InFlight(CircuitPermit permit, long since) {
    }

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
        if ((started.incrementAndGet() & 255) == 0) {
            sweepAbandoned(System.nanoTime());
            registry.removeIdleInstances(IDLE_NANOS);
        }
        String target = AvoidFailedInstancesSupplier.target(instance);
        try {
            // the balancer applied the ramp by offering the instance less often (AvoidOpenCircuitsSupplier)
            CircuitPermit permit = registry.guard(instance.getServiceId(), target).acquire(false);
            inFlight.put(request, new InFlight(permit, System.nanoTime()));
        } catch (CircuitOpenException refused) {
            // this instance only: nothing was sent, so a retry may take the request to another one,
            // and avoids this one (Spring Cloud reports no completion of a request refused here)
            FailedTargets failed = TraceContextHolder.current().failedTargets();
            if (failed != null) {
                failed.add(target);
            }
            throw new InstanceCircuitOpenException(refused);
        }
    }

    @Override
    public void onComplete(CompletionContext<Object, ServiceInstance, Object> completion) {
        @Nullable InFlight entry = inFlight.remove(completion.getLoadBalancerRequest());
        if (entry == null) {
            return;
        }
        Throwable failure = LoadBalancedOutcomes.failure(completion);
        if (failure == null) {
            entry.permit().succeeded();
        } else {
            entry.permit().failed(failure);
        }
    }

    /**
     * Gives back the permits of requests taken longer ago than {@link #ABANDONED_NANOS}.
     *
     * @param now the current time in nanoseconds
     * @return how many were given back
     */
    int sweepAbandoned(long now) {
        List<CircuitPermit> abandoned = new ArrayList<>();
        synchronized (inFlight) {
            inFlight.values().removeIf(entry -> {
                boolean old = now - entry.since() > ABANDONED_NANOS;
                if (old) {
                    abandoned.add(entry.permit());
                }
                return old;
            });
        }
        abandoned.forEach(CircuitPermit::released);
        return abandoned.size();
    }
}
