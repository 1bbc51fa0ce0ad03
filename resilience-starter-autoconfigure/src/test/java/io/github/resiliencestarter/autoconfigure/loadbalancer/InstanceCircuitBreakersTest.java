package io.github.resiliencestarter.autoconfigure.loadbalancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.circuit.CircuitGuard;
import io.github.resiliencestarter.circuit.CircuitObserver;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.circuit.InstanceCircuitOpenException;
import io.github.resiliencestarter.context.FailedTargets;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.DefaultRequest;
import org.springframework.cloud.client.loadbalancer.DefaultResponse;
import org.springframework.cloud.client.loadbalancer.Request;

/**
 * The per-instance lifecycle on its own: a request whose end is never reported (a cancelled
 * reactive exchange) gives its permit back after a while, so a half-open breaker is not left
 * waiting for a probe that will never end; a refused request marks its instance failed for the
 * retry.
 */
class InstanceCircuitBreakersTest {

    private final CircuitRegistry registry = CircuitRegistry.of(CircuitBreakerConfig.ofDefaults(),
            Map.of("inventory", CircuitBreakerConfig.custom().perInstance(true).halfOpenCalls(1)
                    .waitInOpenState(Duration.ofMillis(1)).build()), CircuitObserver.NOOP);

    private final InstanceCircuitBreakers lifecycle = new InstanceCircuitBreakers(registry);

    private final ServiceInstance instance = new DefaultServiceInstance("i-1", "inventory", "10.0.0.7", 8080, false);

    private CircuitGuard halfOpen() throws InterruptedException {
        CircuitGuard guard = registry.guard("inventory", "10.0.0.7:8080");
        for (int i = 0; i < CircuitBreakerConfig.DEFAULT_MINIMUM_CALLS; i++) {
            guard.acquire(false).failed(new IOException("reset"));
        }
        assertThat(guard.state()).isEqualTo(CircuitState.OPEN);
        Thread.sleep(5);
        return guard;
    }

    @Test
    void anAbandonedRequestGivesItsPermitBackSoTheHalfOpenBreakerCanProbeAgain() throws Exception {
        CircuitGuard guard = halfOpen();
        Request<Object> abandoned = new DefaultRequest<>();
        lifecycle.onStartRequest(abandoned, new DefaultResponse(instance));
        assertThat(guard.state()).isEqualTo(CircuitState.HALF_OPEN);
        assertThatThrownBy(() -> lifecycle.onStartRequest(new DefaultRequest<>(), new DefaultResponse(instance)))
                .isInstanceOf(InstanceCircuitOpenException.class);

        assertThat(lifecycle.sweepAbandoned(System.nanoTime())).as("too young to sweep").isZero();
        assertThat(lifecycle.sweepAbandoned(System.nanoTime() + InstanceCircuitBreakers.ABANDONED_NANOS + 1))
                .isEqualTo(1);
        lifecycle.onStartRequest(new DefaultRequest<>(), new DefaultResponse(instance)); // a probe again
    }

    @Test
    void aRefusedRequestMarksItsInstanceFailedForTheRetry() throws Exception {
        halfOpen();
        lifecycle.onStartRequest(new DefaultRequest<>(), new DefaultResponse(instance));
        FailedTargets failed = new FailedTargets();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withFailedTargets(failed))) {
            assertThatThrownBy(() -> lifecycle.onStartRequest(new DefaultRequest<>(), new DefaultResponse(instance)))
                    .isInstanceOf(InstanceCircuitOpenException.class);
        }
        assertThat(failed.contains("10.0.0.7:8080")).isTrue();
    }
}
