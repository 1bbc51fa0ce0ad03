package io.github.resiliencestarter.autoconfigure.circuit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.circuit.CircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitSnapshot;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.retry.RetryableException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Mono;

/**
 * {@code @Timeout} + {@code @Idempotent} + {@code @Retry} + {@code @CircuitBreaker} with a fallback
 * for refusals, on each result type: every retry attempt is one breaker call (two per failing
 * call), the open circuit answers with the fallback without running the method, and the
 * fallback's answer is the result the key replays.
 */
class CircuitBreakerResultKindsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class,
                    CircuitBreakerAutoConfiguration.class))
            .withPropertyValues("resilience.idempotent.store=memory", "resilience.retry.delay=1ms",
                    "resilience.retry.max-delay=2ms", "resilience.circuit-breaker.sliding-window-size=4",
                    "resilience.circuit-breaker.minimum-calls=4", "resilience.circuit-breaker.wait-in-open-state=1h")
            .withBean(Stock.class);

    /** A downstream that always fails, called in three styles; state read through methods. */
    public static class Stock {

        private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

        public int runs(String kind) {
            return runs.computeIfAbsent(kind, key -> new AtomicInteger()).get();
        }

        private RetryableException failure(String kind) {
            runs.computeIfAbsent(kind, key -> new AtomicInteger()).incrementAndGet();
            return new RetryableException("STOCK_DOWN", "503 from stock");
        }

        @Timeout("2s")
        @Idempotent(key = "#key")
        @Retry(name = "kinds", idempotent = true, maxAttempts = 2)
        @CircuitBreaker(name = "blocking", fallbackMethod = "cachedBlocking")
        public String blocking(String key) {
            throw failure("blocking");
        }

        String cachedBlocking(String key, CircuitOpenException refused) {
            return "cached";
        }

        @Timeout("2s")
        @Idempotent(key = "#key")
        @Retry(name = "kinds", idempotent = true, maxAttempts = 2)
        @CircuitBreaker(name = "future", fallbackMethod = "cachedFuture")
        public CompletableFuture<String> future(String key) {
            return CompletableFuture.failedFuture(failure("future"));
        }

        CompletableFuture<String> cachedFuture(String key, CircuitOpenException refused) {
            return CompletableFuture.completedFuture("cached");
        }

        @Timeout("2s")
        @Idempotent(key = "#key")
        @Retry(name = "kinds", idempotent = true, maxAttempts = 2)
        @CircuitBreaker(name = "mono", fallbackMethod = "cachedMono")
        public Mono<String> mono(String key) {
            return Mono.defer(() -> Mono.error(failure("mono")));
        }

        Mono<String> cachedMono(String key, CircuitOpenException refused) {
            return Mono.just("cached");
        }
    }

    private void check(String kind, Function<Stock, Function<String, String>> call) {
        runner.run(context -> {
            Stock stock = context.getBean(Stock.class);
            Function<String, String> invoke = call.apply(stock);
            String run = UUID.randomUUID().toString();
            for (int i = 0; i < 2; i++) {
                String key = run + "-failing-" + i;
                Throwable failure = catchThrowable(() -> invoke.apply(key));
                while (failure.getCause() != null) {
                    failure = failure.getCause();
                }
                assertThat(failure).isInstanceOf(RetryableException.class);
            }
            CircuitSnapshot recorded = context.getBean(CircuitRegistry.class).guard(kind).snapshot();
            assertThat(recorded.state()).isEqualTo(CircuitState.OPEN);
            assertThat(recorded.failedCalls()).as("two calls of two attempts each").isEqualTo(4);
            assertThat(stock.runs(kind)).isEqualTo(4);

            assertThat(invoke.apply(run + "-open")).isEqualTo("cached");
            assertThat(invoke.apply(run + "-open")).as("replayed").isEqualTo("cached");
            assertThat(stock.runs(kind)).as("the open circuit ran nothing").isEqualTo(4);
        });
    }

    @Test
    void blocking() {
        check("blocking", stock -> key -> {
            try {
                return stock.blocking(key);
            } catch (RuntimeException ex) {
                throw new IllegalStateException(ex);
            }
        });
    }

    @Test
    void completableFuture() {
        check("future", stock -> key -> stock.future(key).orTimeout(5, TimeUnit.SECONDS).join());
    }

    @Test
    void mono() {
        check("mono", stock -> key -> stock.mono(key).block(Duration.ofSeconds(5)));
    }
}
