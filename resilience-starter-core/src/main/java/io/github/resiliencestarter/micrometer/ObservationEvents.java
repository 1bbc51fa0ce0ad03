package io.github.resiliencestarter.micrometer;

import io.github.resiliencestarter.idempotent.IdempotencyObserver;
import io.github.resiliencestarter.idempotent.IdempotencyOutcome;
import io.github.resiliencestarter.retry.RetryObserver;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Marks retries and idempotency outcomes as events on the current Micrometer observation, so a
 * tracing bridge shows them on the request's span ({@code resilience.retry},
 * {@code resilience.idempotent.replayed}, ...). Does nothing outside an observation.
 */
public class ObservationEvents implements RetryObserver, IdempotencyObserver {

    private static final Observation.Event RETRY = Observation.Event.of("resilience.retry",
            "a @Retry attempt failed and another follows");

    private static final Observation.Event HEDGE = Observation.Event.of("resilience.retry.hedge",
            "a @Retry attempt was slow and a parallel one started");

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
    public void onOutcome(String operation, IdempotencyOutcome outcome) {
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(Observation.Event.of("resilience.idempotent." + outcome.tag()));
        }
    }
}
