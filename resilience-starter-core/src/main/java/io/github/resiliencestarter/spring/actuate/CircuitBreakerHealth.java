package io.github.resiliencestarter.spring.actuate;

import io.github.resiliencestarter.circuit.CircuitGuard;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The breakers' health: which are open, half-open or ramping. {@code UP} even while some are
 * open: an open circuit means a downstream is failing and this instance is coping with it, and a
 * DOWN here would take healthy instances out of their load balancer by the dozen, turning one
 * service's outage into every caller's (see docs/circuit-breaker.md). The details name them, for
 * dashboards and alerts.
 */
public final class CircuitBreakerHealth {

    private final CircuitRegistry registry;

    /**
     * Creates the check.
     *
     * @param registry the breakers
     */
    public CircuitBreakerHealth(CircuitRegistry registry) {
        this.registry = registry;
    }

    /**
     * Reads every breaker's state.
     *
     * @return {@code UP}, with the breakers per state that is not closed
     */
    public HealthReport check() {
        Map<String, List<String>> byState = new TreeMap<>();
        int closed = 0;
        for (CircuitGuard guard : registry.guards()) {
            CircuitState state = guard.state();
            if (state == CircuitState.CLOSED) {
                closed++;
            } else {
                byState.computeIfAbsent(state.tag(), key -> new ArrayList<>()).add(guard.name());
            }
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("closed", closed);
        byState.forEach((state, names) -> details.put(state, names.stream().sorted().toList()));
        return new HealthReport("UP", details);
    }
}
