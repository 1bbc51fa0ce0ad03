package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.testsupport.RealServers;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two sample instances on one real MySQL-compatible database (idempotency on JDBC, then on a real
 * Redis): 1 000 create requests, 30 % of them duplicates, from 16 client threads split across both
 * instances. Every order exists once, stock moved once per order, every duplicate got the first
 * response.
 */
class TwoInstanceEndToEndTest {

    private static final int DISTINCT = 700;

    private static final int DUPLICATES = 300;

    private static ConfigurableApplicationContext start(String store) {
        RealServers.Jdbc db = RealServers.jdbc();
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.profiles.active=mysql",
                "--spring.datasource.url=" + db.url(), "--spring.datasource.username=" + db.user(),
                "--spring.datasource.password=" + db.password(), "--resilience.idempotent.store=" + store,
                "--spring.datasource.hikari.maximum-pool-size=30", "--logging.level.root=WARN",
                // exactly-once is the subject, not deadlines: a 2 s order budget answered 504 under a CPU burner
                "--sample.order-timeout=30s"));
        if (store.equals("redis")) {
            args.add("--spring.data.redis.url=" + RealServers.redisUrl());
        }
        return new SpringApplicationBuilder(SampleApplication.class).run(args.toArray(String[]::new));
    }

    private static int totalStock(JdbcTemplate jdbc) {
        return jdbc.queryForObject("SELECT SUM(quantity) FROM stock WHERE product_id IN (1, 2, 3)", Integer.class);
    }

    private static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "redis"})
    void O4_everyOrderExistsOnceStockMovesOnceAndDuplicatesReplayTheFirstResponse(String store) throws Exception {
        String run = store + "-" + TraceIds.generate().substring(0, 8);
        try (ConfigurableApplicationContext first = start(store);
                ConfigurableApplicationContext second = start(store)) {
            SampleHttp[] instances = {new SampleHttp(port(first)), new SampleHttp(port(second))};
            instances[0].faults(0, 0, 0);
            instances[1].faults(0, 0, 0);
            JdbcTemplate jdbc = first.getBean(JdbcTemplate.class);
            int stockBefore = totalStock(jdbc);

            List<String> requests = new ArrayList<>();
            for (int i = 0; i < DISTINCT; i++) {
                requests.add(run + "-" + i);
            }
            Random random = new Random(42);
            for (int i = 0; i < DUPLICATES; i++) {
                requests.add(run + "-" + random.nextInt(DISTINCT));
            }
            Collections.shuffle(requests, random);

            Map<String, List<String>> bodies = new ConcurrentHashMap<>();
            ExecutorService clients = Executors.newFixedThreadPool(16);
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < requests.size(); i++) {
                String orderNo = requests.get(i);
                SampleHttp instance = instances[i % 2];
                statuses.add(clients.submit(() -> {
                    long product = 1 + Math.floorMod(orderNo.hashCode(), 3);
                    HttpResponse<String> response = instance.createOrder(orderNo, product, 1, "1.00");
                    bodies.computeIfAbsent(orderNo, k -> Collections.synchronizedList(new ArrayList<>()))
                            .add(response.body());
                    return response.statusCode();
                }));
            }
            for (Future<Integer> status : statuses) {
                assertThat(status.get(60, TimeUnit.SECONDS)).isEqualTo(200);
            }
            clients.shutdown();

            Integer orders = jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_no LIKE ?", Integer.class,
                    run + "-%");
            Integer reservations = jdbc.queryForObject(
                    "SELECT COUNT(*) FROM stock_reservation WHERE order_no LIKE ?", Integer.class, run + "-%");
            int stockAfter = totalStock(jdbc);
            assertThat(orders).isEqualTo(DISTINCT);
            assertThat(reservations).isEqualTo(DISTINCT);
            assertThat(stockBefore - stockAfter).isEqualTo(DISTINCT);
            assertThat(bodies).hasSize(DISTINCT);
            bodies.forEach((orderNo, answers) -> assertThat(answers).as(orderNo).allMatch(answers.get(0)::equals));
        }
    }
}
