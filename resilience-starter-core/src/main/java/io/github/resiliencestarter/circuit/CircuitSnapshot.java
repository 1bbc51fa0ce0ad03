package io.github.resiliencestarter.circuit;

import java.time.Duration;

/**
 * One breaker's state and counts at a moment, for the actuator endpoint, health and gauges.
 *
 * @param name the breaker's name
 * @param state its state
 * @param failureRate the failure rate of the window in percent, or -1 before the minimum calls
 * @param slowCallRate the slow-call rate of the window in percent, or -1 before the minimum calls
 * @param bufferedCalls calls in the window
 * @param failedCalls failed calls in the window
 * @param slowCalls slow calls in the window
 * @param untilProbe how long until it lets a call through again; zero when it does now (closed or ramping)
 * @param admittedShare the share of calls it admits: below 1 only while ramping
 * @param config its settings
 */
public record CircuitSnapshot(String name, CircuitState state, float failureRate, float slowCallRate,
        int bufferedCalls, int failedCalls, int slowCalls, Duration untilProbe, double admittedShare,
        CircuitBreakerConfig config) {
}
