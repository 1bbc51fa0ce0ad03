package io.github.resiliencestarter.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.circuit.CircuitOutcome;
import io.github.resiliencestarter.idempotent.IdempotencyOutcome;
import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.timeout.TimeoutOutcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Retries and idempotency outcomes show up as events on the current observation (the span). */
class ObservationEventsTest {

    @Test
    void O1_retriesAndReplaysBecomeEventsOnTheCurrentObservationAndAnOrdinaryRunDoesNot() throws Throwable {
        List<String> events = new CopyOnWriteArrayList<>();
        ObservationRegistry registry = recordingEvents(events);
        ObservationEvents observer = new ObservationEvents(registry);
        Retrier retrier = Retrier.builder("Orders.create", RetryConfig.custom()
                .backOff(new FixedBackOff(Duration.ofMillis(1))).build()).observer(observer).build();
        AtomicInteger attempts = new AtomicInteger();

        Observation.createNotStarted("http.server.requests", registry).observeChecked(() -> {
            retrier.call(() -> {
                if (attempts.incrementAndGet() < 3) {
                    throw new RetryableException("BUSY", "busy");
                }
                return "ok";
            });
            observer.onOutcome("ORDER_CREATE", IdempotencyOutcome.REPLAYED);
            // the ordinary path is counted by the starter's meters, not marked on the span
            observer.onOutcome("ORDER_CREATE", IdempotencyOutcome.EXECUTED);
            observer.onOutcome("ORDER_CREATE", IdempotencyOutcome.UNPROTECTED);
            return null;
        });
        observer.onOutcome("ORDER_CREATE", IdempotencyOutcome.IN_PROGRESS);

        assertThat(events).containsExactly("resilience.retry", "resilience.retry", "resilience.idempotent.replayed");
    }

    @Test
    void O1_timeoutsAndBreakerRefusalsBecomeEventsAndSuccessesDoNot() {
        List<String> events = new CopyOnWriteArrayList<>();
        ObservationRegistry registry = recordingEvents(events);
        ObservationEvents observer = new ObservationEvents(registry);

        Observation.createNotStarted("http.server.requests", registry).observe(() -> {
            observer.onOutcome("Orders.create", TimeoutOutcome.SUCCESS, 10);
            observer.onOutcome("Orders.create", TimeoutOutcome.TIMEOUT, 10);
            observer.onOutcome("Orders.create", TimeoutOutcome.BUDGET_SPENT, 0);
            observer.onCall("inventory", CircuitOutcome.SUCCESS);
            observer.onCall("inventory", CircuitOutcome.NOT_PERMITTED);
        });

        assertThat(events).containsExactly("resilience.timeout.timeout", "resilience.timeout.budget_spent",
                "resilience.circuit-breaker.refused");
    }

    /** A registry whose one handler records the name of every event. */
    private static ObservationRegistry recordingEvents(List<String> events) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onEvent(Observation.Event event, Observation.Context context) {
                events.add(event.getName());
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        return registry;
    }
}
