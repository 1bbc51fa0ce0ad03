package io.github.resiliencestarter.circuit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.micrometer.ResilienceMetrics;
import io.github.resiliencestarter.testsupport.ManualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 47: breakers per instance, and their meters, must not only grow. A closed breaker of an
 * instance no call has used for the idle time goes, with its meters; an open one and a used one stay.
 */
class InstanceBreakerRemovalTest {

    private static final long IDLE = TimeUnit.MINUTES.toNanos(10);

    private final ManualTime time = new ManualTime(1_000_000);

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final CircuitRegistry registry = CircuitRegistry.of(CircuitBreakerConfig.ofDefaults(),
            Map.of("inventory", CircuitBreakerConfig.custom().perInstance(true).minimumCalls(2).slidingWindow(
                    CircuitBreakerConfig.SlidingWindow.COUNT_BASED, 2).waitInOpenState(Duration.ofHours(1)).build()),
            new ResilienceMetrics(meters), time);

    private int metersOf(String circuit) {
        return meters.find(ResilienceMetrics.CIRCUIT_CALLS).tag("name", circuit).meters().size()
                + meters.find(ResilienceMetrics.CIRCUIT_STATE).tag("name", circuit).meters().size();
    }

    @Test
    void aClosedBreakerOfAnInstanceUnusedForTheIdleTimeGoesWithItsMeters() {
        CircuitGuard gone = registry.guard("inventory", "10.0.0.1:8080");
        gone.acquire(false).succeeded();
        CircuitGuard open = registry.guard("inventory", "10.0.0.2:8080");
        open.acquire(false).failed(new IOException("reset"));
        open.acquire(false).failed(new IOException("reset"));
        assertThat(open.state()).isEqualTo(CircuitState.OPEN);
        CircuitGuard named = registry.guard("inventory");
        assertThat(metersOf("inventory[10.0.0.1:8080]")).isPositive();

        time.advance(TimeUnit.NANOSECONDS.toMillis(IDLE) - 1_000);
        CircuitGuard used = registry.guard("inventory", "10.0.0.3:8080");
        used.acquire(false).succeeded();
        assertThat(registry.removeIdleInstances(IDLE)).as("not idle long enough yet").isZero();

        time.advance(1_000);
        assertThat(registry.removeIdleInstances(IDLE)).isEqualTo(1);
        assertThat(registry.guards()).containsExactlyInAnyOrder(open, used, named);
        assertThat(metersOf("inventory[10.0.0.1:8080]")).isZero();
        assertThat(metersOf("inventory[10.0.0.2:8080]")).isPositive();
        // the instance back later: a fresh breaker
        assertThat(registry.guard("inventory", "10.0.0.1:8080")).isNotSameAs(gone);
    }
}
