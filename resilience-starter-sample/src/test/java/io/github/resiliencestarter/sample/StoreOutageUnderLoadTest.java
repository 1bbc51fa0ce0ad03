package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.testsupport.DisposableMariaDb;
import io.github.resiliencestarter.testsupport.DisposableRedis;
import io.github.resiliencestarter.testsupport.RealServers;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The store holding the idempotency records (Redis, then MariaDB, which also holds the orders) is
 * killed during a steady load of creates and started again: while it is down, creates fail closed
 * with 503 problems and no order is written without a claim; afterwards everything proceeds, and
 * the client's retries with the same keys create every order exactly once.
 */
class StoreOutageUnderLoadTest {

    /** Kills and restarts the store under test. */
    interface Outage {

        void kill() throws Exception;

        void resume() throws Exception;
    }

    @Test
    void aRedisOutageUnderLoadFailsClosedAndLeavesNoDuplicateAfterRecovery() throws Exception {
        // a Redis that keeps what it acknowledged through the kill: one that forgets its records lets every
        // committed order run again, and only a unique business key, which the sample has not, could stop that
        try (DisposableRedis redis = DisposableRedis.startDurable()) {
            RealServers.Jdbc db = RealServers.jdbc();
            try (ConfigurableApplicationContext app = new SpringApplicationBuilder(SampleApplication.class).run(
                    "--server.port=0", "--spring.profiles.active=mysql,redis", "--spring.datasource.url=" + db.url(),
                    "--spring.datasource.username=" + db.user(), "--spring.datasource.password=" + db.password(),
                    "--spring.data.redis.url=redis://127.0.0.1:" + redis.port(), "--spring.data.redis.timeout=500ms",
                    "--spring.data.redis.connect-timeout=500ms", "--logging.level.root=WARN")) {
                loadThroughAnOutage(app, new Outage() {
                    @Override
                    public void kill() throws Exception {
                        redis.kill();
                    }

                    @Override
                    public void resume() throws Exception {
                        redis.resume();
                    }
                });
            }
        }
    }

    @Test
    void aDatabaseOutageUnderLoadFailsClosedAndLeavesNoDuplicateAfterRecovery() throws Exception {
        try (DisposableMariaDb mariadb = DisposableMariaDb.start()) {
            try (ConfigurableApplicationContext app = new SpringApplicationBuilder(SampleApplication.class).run(
                    "--server.port=0", "--spring.profiles.active=mysql", "--spring.datasource.url=" + mariadb.url(),
                    "--spring.datasource.username=resilience", "--spring.datasource.password=resilience",
                    "--spring.datasource.hikari.connection-timeout=500", "--resilience.idempotent.store=jdbc",
                    "--logging.level.root=WARN")) {
                loadThroughAnOutage(app, new Outage() {
                    @Override
                    public void kill() throws Exception {
                        mariadb.kill();
                    }

                    @Override
                    public void resume() throws Exception {
                        mariadb.resume();
                    }
                });
            }
        }
    }

    private static void loadThroughAnOutage(ConfigurableApplicationContext app, Outage outage) throws Exception {
        String run = "OUT" + TraceIds.generate().substring(0, 6);
        SampleHttp http = new SampleHttp(Integer.parseInt(app.getEnvironment().getProperty("local.server.port")));
        http.faults(0, 0, 0);
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        int stockBefore = jdbc.queryForObject("SELECT quantity FROM stock WHERE product_id = 3", Integer.class);

        AtomicBoolean down = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger sequence = new AtomicInteger();
        Set<String> attempted = ConcurrentHashMap.newKeySet();
        Map<Integer, AtomicInteger> statusesWhileDown = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        for (int t = 0; t < 8; t++) {
            clients.submit(() -> {
                while (!stop.get()) {
                    String orderNo = run + "-" + sequence.incrementAndGet();
                    attempted.add(orderNo);
                    boolean wasDown = down.get();
                    HttpResponse<String> response = http.createOrder(orderNo, 3, 1, "1.00");
                    if (wasDown && down.get()) {
                        statusesWhileDown.computeIfAbsent(response.statusCode(), k -> new AtomicInteger())
                                .incrementAndGet();
                    }
                }
                return null;
            });
        }
        Thread.sleep(1_500);
        outage.kill();
        down.set(true);
        Thread.sleep(2_500);
        down.set(false);
        outage.resume();
        Thread.sleep(2_000);
        stop.set(true);
        clients.shutdown();
        assertThat(clients.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        // the client retries everything with the same keys: all succeed, each order once
        List<String> failed = new ArrayList<>();
        for (String orderNo : attempted) {
            HttpResponse<String> response = null;
            for (int attempt = 0; attempt < 20; attempt++) {
                response = http.createOrder(orderNo, 3, 1, "1.00");
                if (response.statusCode() == 200) {
                    break;
                }
                if (response.statusCode() == 409 && response.body().contains("idempotent-response-unavailable")) {
                    // committed just as the store died, response lost with it: the client reads the order
                    response = http.send("GET", "/order/" + orderNo, null);
                    if (response.statusCode() == 200) {
                        break;
                    }
                }
                Thread.sleep(200);
            }
            if (response.statusCode() != 200) {
                failed.add(orderNo + " " + response.statusCode());
            }
        }
        assertThat(failed).isEmpty();
        // no unique key on the order number and no check in the service: a second run would show here
        Integer orders = jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_no LIKE ?",
                Integer.class, run + "-%");
        Integer distinctOrders = jdbc.queryForObject("SELECT COUNT(DISTINCT order_no) FROM orders WHERE order_no LIKE ?",
                Integer.class, run + "-%");
        assertThat(orders).as("orders, against order numbers").isEqualTo(distinctOrders);
        int stockAfter = jdbc.queryForObject("SELECT quantity FROM stock WHERE product_id = 3", Integer.class);
        assertThat(orders).isEqualTo(attempted.size());
        assertThat(stockBefore - stockAfter).isEqualTo(attempted.size());
        // while the store was down: fail closed, 503 problems only
        assertThat(statusesWhileDown).containsKey(503);
        assertThat(statusesWhileDown.keySet()).containsOnly(503);
        System.out.printf("outage under load: %d orders, statuses while down %s%n", orders,
                statusesWhileDown);
    }
}
