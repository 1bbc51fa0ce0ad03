package io.github.resiliencestarter.autoconfigure.circuit;

/**
 * Circuit-breaker settings of one named breaker ({@code resilience.circuit-breaker.instances.<name>.*});
 * unset values come from the defaults.
 */
public class CircuitBreakerInstanceProperties extends CircuitBreakerSettings {
}
