package io.github.resiliencestarter.autoconfigure.loadbalancer;

import io.github.resiliencestarter.context.FailedTargets;
import io.github.resiliencestarter.context.TraceContextHolder;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.LoadBalancerLifecycle;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.Response;
import org.springframework.cloud.client.loadbalancer.ResponseData;

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
        if (failed == null || chosen == null || !chosen.hasServer() || !isFailure(completion)) {
            return;
        }
        failed.add(AvoidFailedInstancesSupplier.target(chosen.getServer()));
    }

    private static boolean isFailure(CompletionContext<Object, ServiceInstance, Object> completion) {
        if (completion.status() == CompletionContext.Status.FAILED) {
            return true;
        }
        @Nullable Object response = completion.getClientResponse();
        if (response instanceof ResponseData data && data.getHttpStatus() != null) {
            int status = data.getHttpStatus().value();
            return status >= 500 || status == 408 || status == 429;
        }
        return false;
    }
}
