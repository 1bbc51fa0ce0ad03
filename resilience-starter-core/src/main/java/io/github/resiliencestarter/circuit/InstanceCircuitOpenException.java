package io.github.resiliencestarter.circuit;

import io.github.resiliencestarter.retry.RequestNotSentException;
import java.time.Duration;

/**
 * A request to one instance of a service refused by that instance's breaker: nothing was sent, so
 * a retry may go to another instance, even for a call that is not idempotent. Answered 503
 * {@code circuit-open} when no retry took it elsewhere.
 */
public class InstanceCircuitOpenException extends RequestNotSentException implements CircuitRefusal {

    private static final long serialVersionUID = 1L;

    private final String circuit;

    private final Duration retryAfter;

    /**
     * Creates the refusal from the instance breaker's own.
     *
     * @param refused what the instance's breaker said
     */
    public InstanceCircuitOpenException(CircuitOpenException refused) {
        super(refused.getMessage() + "; another instance may take the request");
        this.circuit = refused.circuit();
        this.retryAfter = refused.retryAfter();
    }

    @Override
    public String circuit() {
        return circuit;
    }

    @Override
    public Duration retryAfter() {
        return retryAfter;
    }
}
