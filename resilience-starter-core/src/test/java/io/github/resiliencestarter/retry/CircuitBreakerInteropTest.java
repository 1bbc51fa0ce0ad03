package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Rule O-3: retries work alongside a real Resilience4j circuit breaker. */
class CircuitBreakerInteropTest {

    @Test
    void O3_anOpenCircuitIsNotRetried() {
        CircuitBreaker breaker = CircuitBreaker.ofDefaults("inventory");
        breaker.transitionToOpenState();
        AtomicInteger attempts = new AtomicInteger();
        Retrier retrier = Retrier.of("Test.breaker", RetryConfig.custom()
                .backOff(new FixedBackOff(Duration.ofMillis(1))).jitter(Jitters.none()).build());

        assertThatThrownBy(() -> retrier.call(() -> {
            attempts.incrementAndGet();
            return breaker.executeCallable(() -> "never");
        })).isInstanceOf(CallNotPermittedException.class);
        assertThat(attempts.get()).isEqualTo(1);
    }

    @Test
    void O3_failuresBehindAClosedCircuitAreRetriedAndCountedByTheBreaker() throws Throwable {
        CircuitBreaker breaker = CircuitBreaker.ofDefaults("payments");
        AtomicInteger attempts = new AtomicInteger();
        Retrier retrier = Retrier.of("Test.closed", RetryConfig.custom()
                .backOff(new FixedBackOff(Duration.ofMillis(1))).jitter(Jitters.none()).build());

        String result = retrier.call(() -> breaker.executeCallable(() -> {
            if (attempts.incrementAndGet() < 3) {
                throw new RetryableException("DOWN", "transient");
            }
            return "paid";
        }));
        assertThat(result).isEqualTo("paid");
        assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(2);
    }
}
