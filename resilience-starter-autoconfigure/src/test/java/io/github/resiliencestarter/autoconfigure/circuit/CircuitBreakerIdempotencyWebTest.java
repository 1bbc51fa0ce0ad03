package io.github.resiliencestarter.autoconfigure.circuit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.circuit.CircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.idempotent.FallbackAnswerHandling;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.testsupport.RealServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code @Idempotent} outside {@code @CircuitBreaker}, over HTTP on a real Redis store: an open
 * circuit answers 503 and releases the key, so the client's later retry with the same key runs;
 * a fallback's answer releases the key too (the retry after recovery runs for real), unless the
 * method stores fallback answers, when it is replayed.
 */
@SpringBootTest(classes = CircuitBreakerIdempotencyWebTest.Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "resilience.idempotent.store=redis",
            "resilience.circuit-breaker.sliding-window-size=2", "resilience.circuit-breaker.minimum-calls=2",
            "resilience.circuit-breaker.wait-in-open-state=300ms", "resilience.circuit-breaker.warm-up=0s"})
class CircuitBreakerIdempotencyWebTest {

    /** Executions of each endpoint's method body. */
    static final Map<String, AtomicInteger> EXECUTIONS = new ConcurrentHashMap<>();

    /** Whether the downstream behind each breaker is failing. */
    static final Map<String, Boolean> DOWN = new ConcurrentHashMap<>();

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Endpoints.class)
    static class Application {
    }

    @RestController
    static class Endpoints {

        private static Map<String, Object> reserve(String breaker) {
            int execution = EXECUTIONS.computeIfAbsent(breaker, key -> new AtomicInteger()).incrementAndGet();
            if (DOWN.getOrDefault(breaker, false)) {
                throw new RetryableException("STOCK_DOWN", "stock service answered 503");
            }
            return Map.of("reserved", execution);
        }

        @PostMapping("/cb/reserve")
        @Idempotent
        @CircuitBreaker(name = "stock")
        public Map<String, Object> reserve(@RequestBody Map<String, Object> order) {
            return reserve("stock");
        }

        @PostMapping("/cb/reserve-or-queue")
        @Idempotent
        @CircuitBreaker(name = "stock-queue", fallbackMethod = "queued")
        public Map<String, Object> reserveOrQueue(@RequestBody Map<String, Object> order) {
            return reserve("stock-queue");
        }

        @PostMapping("/cb/reserve-or-queue-kept")
        @Idempotent(onFallbackAnswer = FallbackAnswerHandling.STORE)
        @CircuitBreaker(name = "stock-queue-kept", fallbackMethod = "queued")
        public Map<String, Object> reserveOrQueueKept(@RequestBody Map<String, Object> order) {
            return reserve("stock-queue-kept");
        }

        Map<String, Object> queued(Map<String, Object> order, CircuitOpenException refused) {
            return Map.of("queued", true);
        }
    }

    @LocalServerPort
    private int port;

    @Autowired
    private CircuitRegistry registry;

    private final HttpClient http = HttpClient.newHttpClient();

    /** Keys of this run only: the Redis server outlives the test, and a key completed before replays. */
    private final String run = UUID.randomUUID().toString();

    private HttpResponse<String> post(String path, String key) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"sku\":\"A-1\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void open(String path, String breaker) throws Exception {
        DOWN.put(breaker, true);
        post(path, "opening-1-" + UUID.randomUUID());
        post(path, "opening-2-" + UUID.randomUUID());
        assertThat(registry.guard(breaker).state()).isEqualTo(CircuitState.OPEN);
    }

    private void recover(String breaker) throws InterruptedException {
        DOWN.put(breaker, false);
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!registry.guard(breaker).untilProbe().isZero() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        Thread.sleep(5); // Resilience4j lets the probe through once the wait has passed, not at its last instant
    }

    private static int executions(String breaker) {
        return EXECUTIONS.computeIfAbsent(breaker, key -> new AtomicInteger()).get();
    }

    @Test
    void anOpenCircuitAnswers503WithRetryAfterAndReleasesTheKeyForTheClientsLaterRetry() throws Exception {
        open("/cb/reserve", "stock");
        int before = executions("stock");

        HttpResponse<String> refused = post("/cb/reserve", "order-1-" + run);
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("circuit-open").contains("traceId");
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(executions("stock")).isEqualTo(before);

        recover("stock");
        HttpResponse<String> retried = post("/cb/reserve", "order-1-" + run);
        assertThat(retried.statusCode()).isEqualTo(200);
        assertThat(executions("stock")).isEqualTo(before + 1);
        HttpResponse<String> duplicate = post("/cb/reserve", "order-1-" + run);
        assertThat(duplicate.body()).isEqualTo(retried.body());
        assertThat(executions("stock")).isEqualTo(before + 1);
    }

    @Test
    void aFallbacksAnswerReleasesTheKeySoTheRetryAfterRecoveryRunsForReal() throws Exception {
        open("/cb/reserve-or-queue", "stock-queue");
        int before = executions("stock-queue");

        HttpResponse<String> queued = post("/cb/reserve-or-queue", "order-2-" + run);
        assertThat(queued.statusCode()).isEqualTo(200);
        assertThat(queued.body()).contains("\"queued\":true");
        assertThat(queued.headers().firstValue("Idempotent-Replayed")).isEmpty();

        recover("stock-queue");
        HttpResponse<String> retried = post("/cb/reserve-or-queue", "order-2-" + run);
        assertThat(retried.statusCode()).isEqualTo(200);
        assertThat(retried.body()).as("the operation ran, not the stand-in replayed").contains("reserved");
        assertThat(executions("stock-queue")).isEqualTo(before + 1);
        HttpResponse<String> duplicate = post("/cb/reserve-or-queue", "order-2-" + run);
        assertThat(duplicate.body()).isEqualTo(retried.body());
        assertThat(executions("stock-queue")).isEqualTo(before + 1);
    }

    @Test
    void aMethodThatStoresFallbackAnswersReplaysTheFallbacksAnswer() throws Exception {
        open("/cb/reserve-or-queue-kept", "stock-queue-kept");
        int before = executions("stock-queue-kept");

        HttpResponse<String> queued = post("/cb/reserve-or-queue-kept", "order-3-" + run);
        assertThat(queued.statusCode()).isEqualTo(200);
        assertThat(queued.body()).contains("\"queued\":true");

        recover("stock-queue-kept");
        HttpResponse<String> duplicate = post("/cb/reserve-or-queue-kept", "order-3-" + run);
        assertThat(duplicate.statusCode()).isEqualTo(200);
        assertThat(duplicate.body()).isEqualTo(queued.body());
        assertThat(executions("stock-queue-kept")).isEqualTo(before);
    }
}
