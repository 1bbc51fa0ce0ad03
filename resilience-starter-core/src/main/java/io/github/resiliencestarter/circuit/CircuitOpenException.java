package io.github.resiliencestarter.circuit;

import io.github.resiliencestarter.retry.NonRetryableException;
import java.time.Duration;

/**
 * A call refused by a circuit breaker: the circuit is open, half-open with every probe taken, or
 * ramping up and the call is above the share admitted so far. The method did not run. Never
 * retried; answered {@code 503} with {@code Retry-After} = {@link #retryAfter()}. Stackless:
 * refusals come by the thousand while a downstream is down.
 */
public class CircuitOpenException extends NonRetryableException implements CircuitRefusal {

    private static final long serialVersionUID = 1L;

    /** The error code of every refusal. */
    public static final String ERROR_CODE = "circuit-open";

    private final String circuit;

    private final CircuitState state;

    private final Duration retryAfter;

    /**
     * Creates the refusal.
     *
     * @param circuit the breaker's name
     * @param state the state that refused
     * @param retryAfter when a call may be let through again, as far as the breaker knows
     */
    public CircuitOpenException(String circuit, CircuitState state, Duration retryAfter) {
        super(ERROR_CODE, "circuit breaker '" + circuit + "' is " + state.tag() + "; the call was not made, "
                + "next chance in " + retryAfter.toMillis() + " ms", null, false);
        this.circuit = circuit;
        this.state = state;
        this.retryAfter = retryAfter;
    }

    @Override
    public String circuit() {
        return circuit;
    }

    /**
     * The state that refused: open, half-open or ramping.
     *
     * @return the state
     */
    public CircuitState state() {
        return state;
    }

    /** The rest of the open wait, or a moment while the probes or the ramp are busy. */
    @Override
    public Duration retryAfter() {
        return retryAfter;
    }
}
