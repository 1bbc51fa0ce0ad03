package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.testsupport.RealServers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A sample instance in its own JVM is killed with SIGKILL in the middle of a burst of creates,
 * holding claims (some orders committed, some not). The client then retries every request against
 * a second instance with the same keys: nothing is lost, and no order number has two orders (the
 * orders table has no unique key and the order service no check of its own: {@code @Idempotent}
 * is the only defence). Where the victim committed but died before storing its response (the JDBC
 * store's documented window), the retry answers 409 "response not recorded" and the client reads
 * the order instead, as the idempotency docs advise. On Redis, whose documented crash window lies
 * between the business commit and the completion, a key may run twice only if the kill left it
 * so: its order committed while its record still said in progress; every other key runs once.
 */
class ProcessCrashTest {

    private static List<String> arguments(String store) {
        List<String> args = new ArrayList<>(SampleNode.onMariaDb());
        args.addAll(List.of("--resilience.idempotent.store=" + store, "--resilience.idempotent.lease=3s",
                "--logging.level.root=WARN"));
        if (store.equals("redis")) {
            args.add("--spring.data.redis.url=" + RealServers.redisUrl());
        }
        return args;
    }

    /**
     * The keys the kill left in the Redis store's crash window: the order committed, the record
     * still in progress (its value starts with {@code P}, as the claim script writes it).
     */
    private static Set<String> committedButInProgress(ConfigurableApplicationContext survivor, JdbcTemplate jdbc,
            String run) {
        StringRedisTemplate redis = survivor.getBean(StringRedisTemplate.class);
        Set<String> committed = new HashSet<>(jdbc.queryForList("SELECT order_no FROM orders WHERE order_no LIKE ?",
                String.class, run + "-%"));
        Set<String> window = new HashSet<>();
        for (String key : redis.keys("*ORDER_CREATE*" + run + "-*")) {
            String value = redis.opsForValue().get(key);
            String orderNo = key.substring(key.lastIndexOf(':') + 1);
            if (value != null && value.startsWith("P\n") && committed.contains(orderNo)) {
                window.add(orderNo);
            }
        }
        return window;
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "redis"})
    void aKilledInstanceLosesNothingAndDuplicatesNothing(String store) throws Exception {
        String run = "K" + store + TraceIds.generate().substring(0, 6);
        List<String> survivorArguments = new ArrayList<>(arguments(store));
        survivorArguments.add("--server.port=0");
        try (SampleNode victim = SampleNode.start("crash-victim", arguments(store));
                ConfigurableApplicationContext survivor = new SpringApplicationBuilder(SampleApplication.class)
                        .run(survivorArguments.toArray(String[]::new))) {
            SampleHttp survivorHttp = new SampleHttp(Integer.parseInt(
                    survivor.getEnvironment().getProperty("local.server.port")));
            SampleHttp victimHttp = victim.http();
            victim.awaitUp(Duration.ofSeconds(90));
            // one order end to end first, outside the run's numbers: a cold JVM answered a whole burst
            // with 504s and then committed nothing for 30 s once in CI (leg 3)
            victimHttp.createOrder("W" + run, 2, 1, "1.00");
            // slow reservations, so that the kill finds many claims in progress
            victimHttp.faults(300, 0, 0);
            JdbcTemplate jdbc = survivor.getBean(JdbcTemplate.class);
            int stockBefore = jdbc.queryForObject("SELECT quantity FROM stock WHERE product_id = 2", Integer.class);

            int orders = 120;
            ExecutorService clients = Executors.newFixedThreadPool(24);
            for (int i = 0; i < orders; i++) {
                String orderNo = run + "-" + i;
                clients.submit(() -> {
                    try {
                        victimHttp.createOrder(orderNo, 2, 1, "1.00");
                    } catch (RuntimeException killed) {
                        // the connection dies with the victim
                    }
                });
            }
            // kill once some orders are committed and others are still running
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < waitUntil && jdbc.queryForObject(
                    "SELECT COUNT(*) FROM orders WHERE order_no LIKE ?", Integer.class, run + "-%") < 10) {
                Thread.sleep(20);
            }
            victim.kill();
            long killedAt = System.nanoTime();
            clients.shutdownNow();
            Integer committedBeforeKill = jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_no LIKE ?",
                    Integer.class, run + "-%");
            Set<String> inCrashWindow = store.equals("redis") ? committedButInProgress(survivor, jdbc, run) : Set.of();

            // the client retries everything, same keys, against the survivor
            Map<String, String> answers = new ConcurrentHashMap<>();
            ExecutorService retries = Executors.newFixedThreadPool(24);
            for (int i = 0; i < orders; i++) {
                String orderNo = run + "-" + i;
                retries.submit(() -> {
                    for (int attempt = 0; attempt < 40 && !answers.containsKey(orderNo); attempt++) {
                        HttpResponse<String> response = survivorHttp.createOrder(orderNo, 2, 1, "1.00");
                        if (response.statusCode() == 200) {
                            answers.put(orderNo, response.body());
                        } else if (response.statusCode() == 409
                                && response.body().contains("idempotent-response-unavailable")) {
                            // committed by the victim, response lost with it: the client reads the order
                            HttpResponse<String> order = survivorHttp.send("GET", "/order/" + orderNo, null);
                            if (order.statusCode() == 200) {
                                answers.put(orderNo, order.body());
                            }
                        } else {
                            Thread.sleep(250);
                        }
                    }
                    return null;
                });
            }
            retries.shutdown();
            assertThat(retries.awaitTermination(3, TimeUnit.MINUTES)).isTrue();
            double recoverySeconds = (System.nanoTime() - killedAt) / 1e9;

            Integer distinctOrders = jdbc.queryForObject("SELECT COUNT(DISTINCT order_no) FROM orders WHERE order_no LIKE ?",
                    Integer.class, run + "-%");
            Map<String, Integer> ranTwice = new HashMap<>();
            jdbc.query("SELECT order_no, COUNT(*) FROM orders WHERE order_no LIKE ? GROUP BY order_no HAVING COUNT(*) > 1",
                    row -> {
                        ranTwice.put(row.getString(1), row.getInt(2));
                    }, run + "-%");
            Integer reservations = jdbc.queryForObject(
                    "SELECT COUNT(*) FROM stock_reservation WHERE order_no LIKE ?", Integer.class, run + "-%");
            int stockAfter = jdbc.queryForObject("SELECT quantity FROM stock WHERE product_id = 2", Integer.class);
            System.out.printf("%s: %d of %d orders committed before the kill, %d of them still in progress in the "
                    + "store; all %d answered %.1f s after it (lease 3 s); order numbers with two orders: %s%n", store,
                    committedBeforeKill, orders, inCrashWindow.size(), answers.size(), recoverySeconds, ranTwice);
            assertThat(committedBeforeKill).as(() -> "orders committed before the kill; the victim's log ends with:\n"
                    + victim.logTail()).isBetween(1, orders - 1);
            assertThat(answers).hasSize(orders);
            assertThat(distinctOrders).isEqualTo(orders);
            assertThat(ranTwice.keySet()).as("order numbers with more than one order, outside the crash window "
                    + inCrashWindow).isSubsetOf(inCrashWindow);
            assertThat(ranTwice.values()).as("orders per number").allMatch(count -> count == 2);
            assertThat(reservations).isEqualTo(orders);
            assertThat(stockBefore - stockAfter).isEqualTo(orders);
        }
    }
}
