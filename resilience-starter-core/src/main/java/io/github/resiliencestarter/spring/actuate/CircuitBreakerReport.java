package io.github.resiliencestarter.spring.actuate;

import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.circuit.CircuitGuard;
import io.github.resiliencestarter.circuit.CircuitSnapshot;
import io.github.resiliencestarter.spring.aop.CircuitBreakerOperation;
import io.github.resiliencestarter.spring.aop.CircuitBreakerOperationSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code circuitBreakers} section of {@code /actuator/resilience}: each breaker's state, its
 * window's rates, the time to its next probe, the share its ramp admits, its thresholds and the
 * methods that call through it.
 */
public class CircuitBreakerReport implements ResilienceReportSection {

    private final CircuitBreakerOperationSource source;

    /**
     * Creates the section.
     *
     * @param source the {@code @CircuitBreaker} methods and their registry
     */
    public CircuitBreakerReport(CircuitBreakerOperationSource source) {
        this.source = source;
    }

    @Override
    public String name() {
        return "circuitBreakers";
    }

    @Override
    public Object report() {
        Map<String, List<String>> methods = new TreeMap<>();
        for (CircuitBreakerOperation operation : source.operations()) {
            methods.computeIfAbsent(operation.guard().name(), key -> new ArrayList<>()).add(operation.name());
        }
        Map<String, Object> breakers = new TreeMap<>();
        for (CircuitGuard guard : source.registry().guards()) {
            breakers.put(guard.name(), describe(guard.snapshot(), methods.getOrDefault(guard.name(), List.of())));
        }
        return breakers;
    }

    private static Map<String, Object> describe(CircuitSnapshot snapshot, List<String> methods) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("state", snapshot.state().name());
        out.put("failureRate", snapshot.failureRate());
        out.put("slowCallRate", snapshot.slowCallRate());
        out.put("bufferedCalls", snapshot.bufferedCalls());
        out.put("failedCalls", snapshot.failedCalls());
        out.put("slowCalls", snapshot.slowCalls());
        out.put("untilProbeMs", snapshot.untilProbe().toMillis());
        out.put("admittedShare", snapshot.admittedShare());
        CircuitBreakerConfig config = snapshot.config();
        Map<String, Object> thresholds = new LinkedHashMap<>();
        thresholds.put("failureRateThreshold", config.failureRateThreshold());
        thresholds.put("slowCallRateThreshold", config.slowCallRateThreshold());
        thresholds.put("slowCallDurationMs", config.slowCallDuration().toMillis());
        thresholds.put("slidingWindow", config.slidingWindow().name() + " " + config.slidingWindowSize());
        thresholds.put("minimumCalls", config.minimumCalls());
        thresholds.put("waitInOpenStateMs", config.waitInOpenState().toMillis());
        thresholds.put("halfOpenCalls", config.halfOpenCalls());
        thresholds.put("warmUpMs", config.warmUp().toMillis());
        thresholds.put("warmUpStartPercent", config.warmUpStartPercent());
        out.put("settings", thresholds);
        out.put("methods", methods);
        return out;
    }
}
