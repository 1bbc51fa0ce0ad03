/**
 * Circuit breaking, plain Java: {@link io.github.resiliencestarter.circuit.CircuitBreakerConfig}
 * says when a circuit opens and how it recovers, {@link io.github.resiliencestarter.circuit.CircuitGuard}
 * runs calls through one breaker, {@link io.github.resiliencestarter.circuit.CircuitRegistry} holds
 * them by name. The state machine is Resilience4j's ({@code resilience4j-circuitbreaker}, an
 * optional dependency: this package is used only when it is present); the judgement of outcomes,
 * the deadline rule and the recovery ramp are in {@code circuit.internal}. Depends on
 * {@code retry} for the classification and the gate that stops a retry loop at an open circuit.
 */
@NullMarked
package io.github.resiliencestarter.circuit;

import org.jspecify.annotations.NullMarked;
