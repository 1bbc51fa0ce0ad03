package io.github.resiliencestarter.circuit;

import java.time.Duration;

/**
 * A call a circuit breaker did not let through: the whole downstream's
 * ({@link CircuitOpenException}) or one instance's ({@link InstanceCircuitOpenException}). Either
 * is answered over HTTP as 503 {@code circuit-open} with {@code Retry-After}.
 */
public interface CircuitRefusal {

    /**
     * The breaker that refused.
     *
     * @return its name
     */
    String circuit();

    /**
     * How long until the breaker lets a call through again.
     *
     * @return the wait, never negative
     */
    Duration retryAfter();
}
