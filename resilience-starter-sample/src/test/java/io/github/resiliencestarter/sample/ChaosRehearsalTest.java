package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The rehearsal of scripts/demo.sh (docs/chaos.md): the sample's header-triggered fault injects
 * 503s into 30 % of the inventory calls of the requests that ask for it, through the
 * {@code RestClient} Boot built. Retries absorb most of them; each order still exists once and
 * moves stock once; nothing is injected into requests that do not ask.
 */
// a context of its own, its breaker kept closed: 30 % failures may reach its 50 % threshold by chance,
// and an open breaker would refuse the orders this test counts (and be left open for other tests).
// Shared with ObservedIdempotencyRolloutTest (the same properties, in the same order: one start); this
// test sends no duplicate, so the observed STOCK_RESERVE changes nothing here
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "resilience.circuit-breaker.instances.inventory.failure-rate-threshold=100",
    "resilience.idempotent.instances.STOCK_RESERVE.mode=observe"})
class ChaosRehearsalTest {

    private static final int ORDERS = 60;

    @LocalServerPort
    private int port;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private JdbcTemplate jdbc;

    private double injected() {
        var counter = meters.find("resilience.chaos.injected").tag("fault", "inventory-503").counter();
        return counter == null ? 0 : counter.count();
    }

    private long retried(String outcome) {
        Timer timer = meters.find("resilience.retry.calls").tag("name", "InventoryClient.reserve")
                .tag("outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void thirtyPercentInjected503sAreRetriedAwayAndEveryOrderTakesEffectOnce() {
        SampleHttp http = new SampleHttp(port);
        http.faults(0, 0, 0);
        String run = "CHAOS" + System.nanoTime();

        http.createOrder(run + "-plain", 1, 1, "1.00");
        assertThat(injected()).as("a request that does not ask gets nothing").isZero();

        int stockBefore = http.stock(1);
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < ORDERS; i++) {
            HttpResponse<String> response = http.createOrder(run + "-" + i, 1, 1, "1.00",
                    "X-Resilience-Chaos", "inventory-503");
            statuses.merge(response.statusCode(), 1, Integer::sum);
        }
        int stockAfter = http.stock(1);

        // about 30 % of ~70 calls; a failed order's attempts count too
        assertThat(injected()).as("injected into the inventory calls").isBetween(5.0, 60.0);
        assertThat(retried("success_with_retry")).as("retries absorbed them").isPositive();
        // an order whose three attempts all drew a 503 (2.7 % each) is answered with a 502 problem (the
        // inventory failed), or 503 if the breaker refused it; never a 500
        assertThat(statuses.keySet()).as(statuses.toString()).isSubsetOf(200, 502, 503);
        assertThat(statuses.getOrDefault(200, 0)).as(statuses.toString()).isGreaterThanOrEqualTo(ORDERS * 3 / 4);
        Integer created = jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_no LIKE ?", Integer.class,
                run + "-%");
        assertThat(created).as("each order once; the plain one too").isEqualTo(statuses.getOrDefault(200, 0) + 1);
        assertThat(stockBefore - stockAfter).as("stock moved once per order").isEqualTo(statuses.getOrDefault(200, 0));
    }
}
