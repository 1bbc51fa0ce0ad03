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
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Marks retries, hedges, idempotency outcomes, timeouts and breaker refusals as events on the
 * current Micrometer observation, so a tracing bridge shows them on the request's span
 * ({@code resilience.retry}, {@code resilience.idempotent.replayed}, {@code resilience.timeout.timeout},
 * {@code resilience.circuit-breaker.refused}, ...). Event names come from a fixed set: a meter
 * handler counts each by name. The ordinary path is no event: a timeout's success, a breaker's
 * permitted call, an idempotent call that simply ran ({@code executed}, {@code unprotected}); the
 * starter's own meters count those. Does nothing outside an observation.
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

    /** One event per timeout outcome, made once: an event is sent on a request's path. */
    private static final Observation.Event[] TIMEOUT_EVENTS =
            events(TimeoutOutcome.values(), outcome -> "resilience.timeout." + outcome.tag());

    /** One event per idempotency outcome. */
    private static final Observation.Event[] IDEMPOTENCY_EVENTS =
            events(IdempotencyOutcome.values(), outcome -> "resilience.idempotent." + outcome.tag());

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
        event(RETRY);
    }

    @Override
    public void onHedge(String operation, int attempt, long delayNanos) {
        event(HEDGE);
    }

    @Override
    public void onOutcome(String operation, TimeoutOutcome outcome, long nanos) {
        if (outcome == TimeoutOutcome.SUCCESS) {
            return;
        }
        event(TIMEOUT_EVENTS[outcome.ordinal()]);
    }

    @Override
    public void onCall(String circuit, CircuitOutcome outcome) {
        if (outcome != CircuitOutcome.NOT_PERMITTED && outcome != CircuitOutcome.RAMP_REJECTED) {
            return;
        }
        event(REFUSED);
    }

    @Override
    public void onOutcome(String operation, IdempotencyOutcome outcome) {
        if (outcome == IdempotencyOutcome.EXECUTED || outcome == IdempotencyOutcome.UNPROTECTED) {
            return;
        }
        event(IDEMPOTENCY_EVENTS[outcome.ordinal()]);
    }

    private void event(Observation.Event event) {
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(event);
        }
    }

    /** The events of an enum's constants, indexed by ordinal. */
    private static <E extends Enum<E>> Observation.Event[] events(E[] outcomes, Function<E, String> name) {
        Observation.Event[] events = new Observation.Event[outcomes.length];
        for (E outcome : outcomes) {
            events[outcome.ordinal()] = Observation.Event.of(name.apply(outcome));
        }
        return events;
    }
}
