package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.context.FailedTargets;
import io.github.resiliencestarter.context.TraceContextHolder;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.LoadBalancerLifecycle;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.Response;

/**
 * Records, in the retried call's {@link FailedTargets}, the instance a load-balanced request failed
 * on: an I/O failure, or a 5xx, 408 or 429 answer (what a retry would retry). Runs on the calling
 * thread of a blocking client (RestTemplate, RestClient), where the call's trace context is.
 */
public class FailedInstanceRecorder implements LoadBalancerLifecycle<Object, Object, ServiceInstance> {

    @Override
    public boolean supports(Class requestContextClass, Class responseClass, Class serverTypeClass) {
        return true;
    }

    @Override
    public void onStart(Request<Object> request) {
    }

    @Override
    public void onStartRequest(Request<Object> request, Response<ServiceInstance> lbResponse) {
    }

    @Override
    public void onComplete(CompletionContext<Object, ServiceInstance, Object> completion) {
        FailedTargets failed = TraceContextHolder.current().failedTargets();
        Response<ServiceInstance> chosen = completion.getLoadBalancerResponse();
        if (failed == null || chosen == null || !chosen.hasServer()
                || !LoadBalancedOutcomes.isRetryWorthy(completion)) {
            return;
        }
        failed.add(AvoidFailedInstancesSupplier.target(chosen.getServer()));
    }
}
