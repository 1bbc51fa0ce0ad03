package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The first step of a rollout on the sample (docs/rollout.md): the inventory's {@code STOCK_RESERVE}
 * in observe mode. Duplicates are not replayed: the handler runs for each of them, and
 * {@code would_replay} counts exactly the duplicates enforcement would have replayed. The
 * inventory's own lookup by order number keeps the effect single, as it does for an application
 * that has served duplicates for years without the annotation. (Not the order endpoint: an
 * observed duplicate runs outside an idempotent execution, so its call to the inventory carries
 * no derived key, and the inventory refuses it.)
 */
// the same properties as ChaosRehearsalTest, in the same order: the two share one cached context
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "resilience.circuit-breaker.instances.inventory.failure-rate-threshold=100",
    "resilience.idempotent.instances.STOCK_RESERVE.mode=observe"})
class ObservedIdempotencyRolloutTest {

    @LocalServerPort
    private int port;

    @Autowired
    private MeterRegistry meters;

    private double calls(String outcome) {
        Counter counter = meters.find("resilience.idempotent.calls").tag("name", "STOCK_RESERVE")
                .tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void O1_inObserveModeDuplicatesRunAndWouldReplayCountsThemExactly() {
        SampleHttp http = new SampleHttp(port);
        http.faults(0, 0, 0);
        String run = "OBS" + System.nanoTime();
        double executedBefore = calls("executed");
        double wouldReplayBefore = calls("would_replay");
        int stockBefore = http.stock(2);

        for (int order = 0; order < 10; order++) {
            for (int copy = 0; copy < 3; copy++) {
                HttpResponse<String> response = http.send("POST", "/inventory/reserve", "{\"orderNo\":\"" + run + "-"
                        + order + "\",\"productId\":2,\"quantity\":1}", "Idempotency-Key", run + "-" + order);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                assertThat(response.headers().firstValue("Idempotent-Replayed")).as("observed: never replayed")
                        .isEmpty();
            }
        }

        assertThat(calls("executed") - executedBefore).isEqualTo(10);
        assertThat(calls("would_replay") - wouldReplayBefore).as("each duplicate, exactly").isEqualTo(20);
        assertThat(calls("replayed")).as("nothing replayed by this name in this context").isZero();
        assertThat(stockBefore - http.stock(2)).as("the inventory's own lookup kept one reservation per order")
                .isEqualTo(10);
    }
}
