package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.resiliencestarter.context.TraceIds;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** The order service on its embedded defaults (H2, JDBC idempotency store), over real HTTP. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrderFlowTest {

    @LocalServerPort
    private int port;

    @Autowired
    private JdbcTemplate jdbc;

    private SampleHttp http;

    private final String run = TraceIds.generate().substring(0, 8);

    @BeforeEach
    void client() {
        http = new SampleHttp(port);
        http.faults(0, 0, 0);
    }

    @AfterEach
    void noFaults() {
        http.faults(0, 0, 0);
    }

    /** Orders with this number: the table has no unique key, so a second execution shows here. */
    private int orders(String orderNo) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_no = ?", Integer.class, orderNo);
    }

    @Test
    void aDuplicateReplaysTheFirstResponseAndAnotherPayloadIs422() {
        HttpResponse<String> first = http.createOrder("A-" + run, 1, 2, "12.50");
        HttpResponse<String> again = http.createOrder("A-" + run, 1, 2, "12.50");
        HttpResponse<String> other = http.createOrder("A-" + run, 1, 2, "99.00");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(SampleHttp.json(first).get("status").asText()).isEqualTo("PENDING");
        assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(SampleHttp.json(again)).isEqualTo(SampleHttp.json(first));
        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(orders("A-" + run)).isEqualTo(1);
    }

    @Test
    void theInventorysRefusalIsTheOrdersProblemNotA500AndNothingIsStored() {
        int before = http.stock(2);
        HttpResponse<String> unknown = http.createOrder("U-" + run, 99, 1, "1.00");

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(SampleHttp.json(unknown).path("detail").asText()).isEqualTo("No product 99");
        assertThat(SampleHttp.json(unknown).path("type").asText()).endsWith("inventory-refused");
        assertThat(http.send("GET", "/order/U-" + run, null).statusCode()).isEqualTo(404);
        assertThat(http.stock(2)).isEqualTo(before);
    }

    @Test
    void badInputIsA400ProblemAndNothingIsStored() {
        int before = http.stock(2);
        for (String body : new String[] {"{\"orderNo\":\"\",\"userId\":7,\"productId\":2,\"quantity\":1,\"amount\":1}",
            "{\"orderNo\":\"X-" + run + "\",\"userId\":7,\"productId\":2,\"quantity\":0,\"amount\":1}",
            "{\"orderNo\":\"X-" + run + "\",\"userId\":7,\"productId\":2,\"quantity\":1,\"amount\":-5}",
            "{\"orderNo\":\"X-" + run + "\",\"userId\":7,\"productId\":2,\"quantity\":1,\"amount\":1.234}",
            "{not json", "{\"orderNo\":\"X<script>\",\"userId\":7,\"productId\":2,\"quantity\":1,\"amount\":1}"}) {
            HttpResponse<String> response = http.send("POST", "/order/create", body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).contains("problem+json"));
            // Spring's own validation problem, with the request's trace id like every problem
            JsonNode problem = SampleHttp.json(response);
            assertThat(problem.path("traceId").asText()).as(body)
                    .isEqualTo(response.headers().firstValue("X-Trace-Id").orElseThrow());
        }
        JsonNode invalid = SampleHttp.json(http.send("POST", "/order/create",
                "{\"orderNo\":\"X-" + run + "\",\"userId\":7,\"productId\":2,\"quantity\":0,\"amount\":-5}"));
        assertThat(invalid.get("errors").findValuesAsText("field")).containsExactlyInAnyOrder("quantity", "amount");
        assertThat(http.send("GET", "/order/X-" + run, null).statusCode()).isEqualTo(404);
        assertThat(http.stock(2)).isEqualTo(before);
    }

    @Test
    void I7_payingIsAConditionalTransitionSoARepeatChangesNothing() {
        http.createOrder("P-" + run, 1, 1, "5.00");
        JsonNode paid = SampleHttp.json(http.send("POST", "/order/P-" + run + "/pay", null));
        JsonNode again = SampleHttp.json(http.send("POST", "/order/P-" + run + "/pay", null));

        assertThat(paid.get("status").asText()).isEqualTo("PAID");
        assertThat(paid.get("version").asInt()).isEqualTo(1);
        assertThat(again).isEqualTo(paid);
        assertThat(http.send("POST", "/order/none-" + run + "/pay", null).statusCode()).isEqualTo(404);
    }

    @Test
    void I7_concurrentReservationsOfOneProductNeverOversellThanksToTheVersionCheck() throws Exception {
        int before = http.stock(3);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            for (int i = 0; i < 40; i++) {
                String orderNo = "S-" + run + "-" + i;
                statuses.add(pool.submit(() -> {
                    start.await();
                    return http.createOrder(orderNo, 3, 2, "1.00").statusCode();
                }));
            }
            start.countDown();
            for (Future<Integer> status : statuses) {
                assertThat(status.get()).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(http.stock(3)).isEqualTo(before - 40 * 2);
    }

    @Test
    void twentyConcurrentDuplicatesMakeOneOrderAndOneReservation() throws Exception {
        int before = http.stock(1);
        String orderNo = "C-" + run;
        ExecutorService pool = Executors.newFixedThreadPool(20);
        Set<String> bodies = new HashSet<>();
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                responses.add(pool.submit(() -> {
                    start.await();
                    return http.createOrder(orderNo, 1, 3, "9.90");
                }));
            }
            start.countDown();
            for (Future<HttpResponse<String>> response : responses) {
                assertThat(response.get().statusCode()).isEqualTo(200);
                bodies.add(SampleHttp.json(response.get()).toString());
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(bodies).hasSize(1);
        assertThat(orders(orderNo)).isEqualTo(1);
        assertThat(http.stock(1)).isEqualTo(before - 3);
    }

    @Test
    void aSlowInventoryTimesOutWith504AndALaterRetryWithTheSameKeyCompletesOnce() {
        int before = http.stock(2);
        http.faults(5_000, 0, 0);
        long start = System.nanoTime();
        HttpResponse<String> slow = http.createOrder("T-" + run, 2, 1, "3.00");
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(slow.statusCode()).isEqualTo(504);
        assertThat(tookMillis).isLessThan(3_500);

        http.faults(0, 0, 0);
        HttpResponse<String> retried = http.createOrder("T-" + run, 2, 1, "3.00");
        assertThat(retried.statusCode()).isEqualTo(200);
        assertThat(SampleHttp.json(retried).get("orderNo").asText()).isEqualTo("T-" + run);
        assertThat(orders("T-" + run)).isEqualTo(1);
        assertThat(http.stock(2)).isEqualTo(before - 1);
    }

    @Test
    void theReactiveStockEndpointAnswersAndIsCutAtItsDeadlineWhenSlow() {
        HttpResponse<String> quick = http.send("GET", "/inventory/stock/1/reactive", null);
        assertThat(quick.statusCode()).isEqualTo(200);
        assertThat(SampleHttp.json(quick).get("available").asInt()).isEqualTo(http.stock(1));

        http.faults(5_000, 0, 0);
        long start = System.nanoTime();
        HttpResponse<String> slow = http.send("GET", "/inventory/stock/1/reactive", null);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(slow.statusCode()).isEqualTo(504);
        assertThat(SampleHttp.json(slow).get("traceId").asText()).isNotBlank();
        assertThat(tookMillis).isLessThan(4_000);
    }

    @Test
    void aFlakyInventoryIsRetriedAndTheBudgetIsSeenDownstream() {
        int before = http.stock(1);
        http.faults(0, 0, 2);
        HttpResponse<String> created = http.createOrder("F-" + run, 1, 1, "4.00", "X-Timeout-Budget-Ms", "1500");
        assertThat(created.statusCode()).isEqualTo(200);
        assertThat(http.stock(1)).isEqualTo(before - 1);
        long seen = SampleHttp.json(http.send("GET", "/inventory/faults", null)).get("lastBudgetMs").asLong();
        assertThat(seen).isPositive().isLessThan(1_500);
    }
}
