package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.context.FailedTargets;
import io.github.resiliencestarter.context.TraceContextHolder;
import java.util.ArrayList;
import java.util.List;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import reactor.core.publisher.Flux;

/**
 * Wraps a service's instance list so that an attempt of a retried call does not choose an
 * instance that failed an earlier attempt of the same call, as long as another instance is
 * available; with every instance failed, the full list stays (retrying somewhere beats not at all).
 * The failed instances are read on the calling thread when the balancer asks for the list.
 */
public class AvoidFailedInstancesSupplier extends DelegatingServiceInstanceListSupplier {

    private final AvoidedInstanceListener listener;

    /**
     * Wraps a supplier.
     *
     * @param delegate the instances as the application's balancer configuration provides them
     * @param listener hears each instance avoided
     */
    public AvoidFailedInstancesSupplier(ServiceInstanceListSupplier delegate, AvoidedInstanceListener listener) {
        super(delegate);
        this.listener = listener;
    }

    /**
     * How a {@link FailedTargets} record names an instance.
     *
     * @param instance the instance
     * @return {@code host:port}
     */
    public static String target(ServiceInstance instance) {
        return instance.getHost() + ":" + instance.getPort();
    }

    @Override
    public Flux<List<ServiceInstance>> get() {
        return avoidFailed(delegate.get());
    }

    @Override
    public Flux<List<ServiceInstance>> get(Request request) {
        return avoidFailed(delegate.get(request));
    }

    private Flux<List<ServiceInstance>> avoidFailed(Flux<List<ServiceInstance>> instances) {
        // read now, on the caller's thread: the list may be emitted on another one
        FailedTargets failed = TraceContextHolder.current().failedTargets();
        if (failed == null) {
            return instances;
        }
        return instances.map(list -> avoid(list, failed));
    }

    private List<ServiceInstance> avoid(List<ServiceInstance> instances, FailedTargets failed) {
        List<ServiceInstance> healthy = new ArrayList<>(instances.size());
        for (ServiceInstance instance : instances) {
            if (!failed.contains(target(instance))) {
                healthy.add(instance);
            }
        }
        if (healthy.isEmpty() || healthy.size() == instances.size()) {
            return instances;
        }
        for (ServiceInstance instance : instances) {
            if (failed.contains(target(instance))) {
                listener.avoided(getServiceId(), target(instance));
            }
        }
        return healthy;
    }
}
