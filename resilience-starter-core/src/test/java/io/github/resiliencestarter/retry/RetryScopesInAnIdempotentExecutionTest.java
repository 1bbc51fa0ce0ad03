package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Inside an idempotent execution, every retried call is a scope of its own (issue 45, items 3 and
 * 4): a commit is seen by the retry it was made in, nested or not, and the places that downstream
 * keys derive from never repeat across retried calls, while an attempt repeats its own.
 */
class RetryScopesInAnIdempotentExecutionTest {

    private final FakeTime time = new FakeTime();

    private Retrier retrier(String name, int attempts) {
        return Retrier.builder(name, RetryConfig.custom().backOff(new FixedBackOff(Duration.ofMillis(1)))
                .jitter(Jitters.none()).maxAttempts(attempts).build()).timeSource(time).sleeper(time).build();
    }

    private static TraceScope inExecution(IdempotentExecution execution) {
        return TraceContextHolder.open(TraceContext.empty().withIdempotentExecution(execution));
    }

    @Test
    void aRetryNestedInAttemptOneOfAnotherStopsAtItsOwnCommit() {
        IdempotentExecution execution = new IdempotentExecution("k", "owner");
        Retrier outer = retrier("Outer.call", 2);
        Retrier nested = retrier("Nested.call", 3);
        AtomicInteger nestedAttempts = new AtomicInteger();
        try (TraceScope scope = inExecution(execution)) {
            assertThatThrownBy(() -> outer.call(() -> nested.call(() -> {
                nestedAttempts.incrementAndGet();
                // what the JDBC store does when the attempt's transaction commits with the key
                execution.recordCommit(TraceContextHolder.current());
                throw new RetryableException("READ_TIMED_OUT", "after the commit");
            }))).isInstanceOf(RetryableException.class);
        }
        assertThat(nestedAttempts).as("no attempt after the one that committed").hasValue(1);
        assertThat(execution.committedAttempt()).isEqualTo(1);
    }

    @Test
    void callsOfTwoRetriedCallsNeverShareAPlaceAndAnAttemptRepeatsItsOwn() throws Throwable {
        IdempotentExecution execution = new IdempotentExecution("k", "owner");
        Retrier client = retrier("Inventory.reserve", 3);
        List<String> places = new ArrayList<>();
        try (TraceScope scope = inExecution(execution)) {
            for (int line = 1; line <= 2; line++) {
                AtomicInteger attempts = new AtomicInteger();
                client.call(() -> {
                    places.add(execution.nextOutboundPlace(TraceContextHolder.current()));
                    if (attempts.incrementAndGet() == 1) {
                        throw new RetryableException("READ_TIMED_OUT", "first attempt lost");
                    }
                    return null;
                });
            }
            places.add(execution.nextOutboundPlace(TraceContextHolder.current()));
            // a narrower context derived inside the execution (an inner @Timeout) is the same scope
            TraceContext narrowed = TraceContextHolder.current().withCallerScope("someone");
            places.add(execution.nextOutboundPlace(narrowed));
        }
        assertThat(places).containsExactly("1.1", "1.1", "2.1", "2.1", "3", "4");
    }

    @Test
    void aReExecutionDerivesTheSamePlacesAsTheFirst() throws Throwable {
        List<String> first = placesOfOneExecution();
        assertThat(placesOfOneExecution()).isEqualTo(first);
    }

    private List<String> placesOfOneExecution() throws Throwable {
        IdempotentExecution execution = new IdempotentExecution("k", "owner-" + first());
        Retrier outer = retrier("Orders.create", 2);
        Retrier inner = retrier("Inventory.reserve", 2);
        List<String> places = new ArrayList<>();
        try (TraceScope scope = inExecution(execution)) {
            places.add(execution.nextOutboundPlace(TraceContextHolder.current()));
            outer.call(() -> {
                places.add(execution.nextOutboundPlace(TraceContextHolder.current()));
                inner.call(() -> places.add(execution.nextOutboundPlace(TraceContextHolder.current())));
                return places.add(execution.nextOutboundPlace(TraceContextHolder.current()));
            });
        }
        assertThat(places).containsExactly("1", "2.1", "2.2.1", "2.3");
        return places;
    }

    private static int runs;

    private static int first() {
        return ++runs;
    }
}
