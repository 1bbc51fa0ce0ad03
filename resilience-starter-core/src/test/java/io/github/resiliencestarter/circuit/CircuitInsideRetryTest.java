package io.github.resiliencestarter.circuit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryClassifier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetrySummary;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.retry.Sleeper;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The breaker per attempt inside the retry loop: what one call records, and no wait against an open circuit. */
class CircuitInsideRetryTest {

    private final ManualTime time = new ManualTime(1_000_000);

    private final List<Long> sleeps = new ArrayList<>();

    private final Sleeper sleeper = nanos -> {
        sleeps.add(nanos);
        time.advance(nanos / 1_000_000);
    };

    private Retrier retrier(int attempts) {
        return Retrier.builder("Inventory.reserve", RetryConfig.custom().maxAttempts(attempts)
                .backOff(new FixedBackOff(Duration.ofMillis(100))).jitter(Jitters.none()).build())
                .timeSource(time).sleeper(sleeper).build();
    }

    private CircuitGuard guard(int window) {
        return CircuitGuard.builder("inventory", CircuitBreakerConfig.custom()
                .slidingWindow(CircuitBreakerConfig.SlidingWindow.COUNT_BASED, window).minimumCalls(window)
                .failureRateThreshold(50).build()).timeSource(time).build();
    }

    @Test
    void R6_threeAttemptsWhereTheThirdSucceedsRecordTwoFailuresAndOneSuccess() throws Throwable {
        CircuitGuard guard = guard(10);
        AtomicInteger attempts = new AtomicInteger();
        String result = retrier(3).call(() -> guard.call(() -> {
            if (attempts.incrementAndGet() < 3) {
                throw new RetryableException("DOWN", "503 from inventory");
            }
            return "reserved";
        }));
        assertThat(result).isEqualTo("reserved");
        assertThat(guard.snapshot().bufferedCalls()).isEqualTo(3);
        assertThat(guard.snapshot().failedCalls()).isEqualTo(2);
        assertThat(sleeps).hasSize(2);
    }

    @Test
    void R6_aFailureThatOpensTheCircuitEndsTheRetryLoopWithoutAWait() {
        CircuitGuard guard = guard(2);
        catchThrowable(() -> guard.call(() -> {
            throw new RetryableException("DOWN", "503");
        }));
        AtomicInteger attempts = new AtomicInteger();
        Throwable failure = catchThrowable(() -> retrier(3).call(() -> guard.call(() -> {
            attempts.incrementAndGet();
            throw new RetryableException("DOWN", "503 from inventory");
        })));

        assertThat(guard.state()).isEqualTo(CircuitState.OPEN);
        assertThat(attempts.get()).isEqualTo(1);
        assertThat(sleeps).isEmpty();
        // the caller sees the downstream's failure, not a refusal: the attempt did run
        assertThat(failure).isInstanceOf(RetryableException.class);
        assertThat(summaryOf(failure).toString()).contains("circuit breaker 'inventory' is open");
    }

    @Test
    void R6_anAsyncRetryStopsAtAnOpenCircuitWithoutScheduling() {
        CircuitGuard guard = guard(2);
        catchThrowable(() -> guard.call(() -> {
            throw new RetryableException("DOWN", "503");
        }));
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> call = retrier(3).callAsync(() -> guard.callAsync(() -> {
            attempts.incrementAndGet();
            return CompletableFuture.failedFuture(new RetryableException("DOWN", "503 from inventory"));
        }));
        // a retry would be a delayed task: the result is already there because none was scheduled
        assertThat(call).isCompletedExceptionally();
        assertThat(attempts.get()).isEqualTo(1);
    }

    @Test
    void O3_aCallMadeWhileOpenIsRefusedOnceAndNotRetried() {
        CircuitGuard guard = guard(2);
        for (int i = 0; i < 2; i++) {
            catchThrowable(() -> guard.call(() -> {
                throw new RetryableException("DOWN", "503");
            }));
        }
        AtomicInteger attempts = new AtomicInteger();
        // even a retry told to retry every RuntimeException: an open circuit is never retried
        Retrier retryingEverything = Retrier.builder("Inventory.reserve", RetryConfig.custom().maxAttempts(3)
                .backOff(new FixedBackOff(Duration.ofMillis(100))).jitter(Jitters.none())
                .classifier(RetryClassifier.builder().retryFor(List.of(RuntimeException.class)).build()).build())
                .timeSource(time).sleeper(sleeper).build();
        Throwable failure = catchThrowable(() -> retryingEverything.call(() -> guard.call(attempts::incrementAndGet)));
        assertThat(failure).isInstanceOf(CircuitOpenException.class);
        assertThat(attempts.get()).isZero();
        assertThat(sleeps).isEmpty();
    }

    private static RetrySummary summaryOf(Throwable failure) {
        return Arrays.stream(failure.getSuppressed()).filter(RetrySummary.class::isInstance)
                .map(RetrySummary.class::cast).findFirst().orElseThrow();
    }
}
