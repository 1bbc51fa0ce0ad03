package io.github.resiliencestarter.micrometer;

import io.github.resiliencestarter.circuit.CircuitObserver;
import io.github.resiliencestarter.circuit.CircuitOutcome;
import io.github.resiliencestarter.idempotent.IdempotencyObserver;
import io.github.resiliencestarter.idempotent.IdempotencyOutcome;
import io.github.resiliencestarter.retry.RetryObserver;
import io.github.resiliencestarter.timeout.TimeoutObserver;
import io.github.resiliencestarter.timeout.TimeoutOutcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Marks retries, hedges, idempotency outcomes, timeouts and breaker refusals as events on the
 * current Micrometer observation, so a tracing bridge shows them on the request's span
 * ({@code resilience.retry}, {@code resilience.idempotent.replayed}, {@code resilience.timeout.timeout},
 * {@code resilience.circuit-breaker.refused}, ...). Event names come from a fixed set: a meter
 * handler counts each by name. Does nothing outside an observation.
 */
public class ObservationEvents implements RetryObserver, IdempotencyObserver, TimeoutObserver, CircuitObserver {

    // a tracing handler names the span event by the contextual name, a meter handler its counter by
    // the name: one string for both, so a trace and a dashboard say the same thing

    /** A {@code @Retry} attempt failed and another follows. */
    private static final Observation.Event RETRY = Observation.Event.of("resilience.retry");

    /** A {@code @Retry} attempt was slow and a parallel one started. */
    private static final Observation.Event HEDGE = Observation.Event.of("resilience.retry.hedge");

    /** A circuit breaker refused the call. */
    private static final Observation.Event REFUSED = Observation.Event.of("resilience.circuit-breaker.refused");

    private final ObservationRegistry registry;

    /**
     * Creates the event source.
     *
     * @param registry the observation registry
     */
    public ObservationEvents(ObservationRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onRetry(String operation, int nextAttempt, @Nullable Throwable error, long delayNanos) {
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(RETRY);
        }
    }

    @Override
    public void onHedge(String operation, int attempt, long delayNanos) {
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(HEDGE);
        }
    }

    @Override
    public void onOutcome(String operation, TimeoutOutcome outcome, long nanos) {
        if (outcome == TimeoutOutcome.SUCCESS) {
            return;
        }
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(Observation.Event.of("resilience.timeout." + outcome.name().toLowerCase(Locale.ROOT)));
        }
    }

    @Override
    public void onCall(String circuit, CircuitOutcome outcome) {
        if (outcome != CircuitOutcome.NOT_PERMITTED && outcome != CircuitOutcome.RAMP_REJECTED) {
            return;
        }
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(REFUSED);
        }
    }

    @Override
    public void onOutcome(String operation, IdempotencyOutcome outcome) {
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(Observation.Event.of("resilience.idempotent." + outcome.tag()));
        }
    }
}
