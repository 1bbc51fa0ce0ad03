package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.resiliencestarter.context.TraceIds;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The inventory call's breaker in the running sample, over real HTTP: a failing inventory opens
 * it, orders are then refused at once with 503 circuit-open and Retry-After (their keys released),
 * and once the inventory answers again the breaker probes, closes into its ramp and the same
 * order goes through. Its own context, with a short wait and ramp.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "resilience.circuit-breaker.instances.inventory.wait-in-open-state=1s",
    "resilience.circuit-breaker.instances.inventory.warm-up=2s",
    "resilience.retry.instances.inventory.delay=5ms", "resilience.retry.instances.inventory.max-delay=10ms"})
class CircuitBreakerFlowTest {

    @LocalServerPort
    private int port;

    private final String run = TraceIds.generate().substring(0, 8);

    @AfterEach
    void noFaults() {
        new SampleHttp(port).faults(0, 0, 0);
    }

    private JsonNode breaker(SampleHttp http) {
        return SampleHttp.json(http.send("GET", "/actuator/resilience", null)).path("circuitBreakers").path("inventory");
    }

    @Test
    void aFailingInventoryOpensTheBreakerOrdersAre503WithRetryAfterAndTheSameOrderGoesThroughAfterRecovery()
            throws Exception {
        SampleHttp http = new SampleHttp(port);
        http.faults(0, 1.0, 0);
        HttpResponse<String> refused = null;
        for (int i = 0; i < 20 && refused == null; i++) {
            HttpResponse<String> response = http.createOrder("CB-" + run + "-" + i, 1, 1, "1.00");
            if (response.body().contains("circuit-open")) {
                refused = response;
            }
        }
        assertThat(refused).as("an order refused by the open breaker").isNotNull();
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(breaker(http).path("state").asText()).isEqualTo("OPEN");
        int stock = http.stock(1);

        String orderNo = "CB-" + run + "-late";
        HttpResponse<String> whileOpen = http.createOrder(orderNo, 1, 1, "1.00");
        assertThat(whileOpen.statusCode()).isEqualTo(503);
        assertThat(http.stock(1)).isEqualTo(stock);

        http.faults(0, 0, 0);
        long until = System.nanoTime() + 5_000_000_000L;
        HttpResponse<String> later = whileOpen;
        while (later.statusCode() != 200 && System.nanoTime() < until) {
            Thread.sleep(100);
            later = http.createOrder(orderNo, 1, 1, "1.00"); // the client's retry, with the same key
        }
        assertThat(later.statusCode()).isEqualTo(200);
        assertThat(http.stock(1)).isEqualTo(stock - 1);
        // the second probe closes it, into the ramp
        String state = breaker(http).path("state").asText();
        for (int i = 0; i < 10 && state.equals("HALF_OPEN"); i++) {
            http.createOrder("CB-" + run + "-probe-" + i, 1, 1, "1.00");
            state = breaker(http).path("state").asText();
        }
        assertThat(state).isIn("RAMPING", "CLOSED");
    }
}
