package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.micrometer.ResilienceMetrics;
import io.github.resiliencestarter.sample.loyalty.LoyaltyListener;
import io.github.resiliencestarter.sample.loyalty.LoyaltyMessaging;
import io.github.resiliencestarter.spring.messaging.rabbit.RabbitTracePostProcessor;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.RealServers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The order-created consumer in a JVM of its own is killed with SIGKILL while it works through
 * about 260 events: 200 orders, 30 % of them sent twice by the producer, each sent as the sample
 * sends it, inside a request under a 2 s deadline (most are consumed after it). It acknowledges 250
 * deliveries at a time, so when it dies every event whose points it committed is still
 * unacknowledged: the broker redelivers them, with the rest, to a second consumer. Every order's
 * points are awarded exactly once (the table has no unique key: a second effect would show), none
 * is lost, and each redelivery of a committed event is acknowledged as a replay.
 */
class MessageConsumerCrashTest {

    private static final int ORDERS = 200;

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static List<String> arguments(int port) {
        RealServers.Jdbc db = RealServers.jdbc();
        return List.of("--server.port=" + port, "--spring.profiles.active=mysql,rabbit",
                "--spring.datasource.url=" + db.url(), "--spring.datasource.username=" + db.user(),
                "--spring.datasource.password=" + db.password(), "--RABBIT_URL=" + RealServers.rabbitUrl(),
                "--resilience.idempotent.store=jdbc", "--resilience.idempotent.lease=3s",
                // slow points, so that the kill finds the consumer in the middle of the stream
                "--resilience.chaos.faults.slow-points.method=LoyaltyListener.onOrderCreated",
                "--resilience.chaos.faults.slow-points.latency=15ms",
                "--resilience.chaos.faults.slow-points.trigger=always",
                // no acknowledgement before 250 deliveries: the kill comes long before, so every commit so far
                // is a commit without its ack (the sample's own setting acknowledges 20 at a time)
                "--spring.rabbitmq.listener.simple.batch-size=250", "--spring.rabbitmq.listener.simple.prefetch=250",
                "--logging.level.root=WARN");
    }

    private static Process startVictim(int port) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx384m", "-cp", System.getProperty("java.class.path"),
                SampleApplication.class.getName()));
        command.addAll(arguments(port));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log(port)).start();
    }

    private static File log(int port) {
        return new File(System.getProperty("java.io.tmpdir"), "consumer-victim-" + port + ".log");
    }

    private static String logTail(int port) {
        try {
            List<String> lines = Files.readAllLines(log(port).toPath());
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException ex) {
            return "(unreadable: " + ex + ")";
        }
    }

    private static boolean up(int port) {
        try {
            HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/actuator/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return health.statusCode() == 200;
        } catch (IOException ex) {
            return false;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static double replayed(ConfigurableApplicationContext context) {
        Counter counter = context.getBean(MeterRegistry.class).find(ResilienceMetrics.IDEMPOTENT_CALLS)
                .tag("name", "LOYALTY_POINTS").tag("outcome", "replayed").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void IP6_aConsumerKilledBetweenItsCommitsAndItsAcksAwardsEveryOrdersPointsExactlyOnce() throws Exception {
        String run = "E" + TraceIds.generate().substring(0, 8);
        int victimPort = freePort();
        Process victim = startVictim(victimPort);
        CachingConnectionFactory connections = new CachingConnectionFactory(URI.create(RealServers.rabbitUrl()));
        try {
            long started = System.nanoTime();
            while (!up(victimPort)) {
                assertThat(victim.isAlive()).as(() -> "the consumer died at start:\n" + logTail(victimPort)).isTrue();
                assertThat(System.nanoTime() - started).isLessThan(TimeUnit.SECONDS.toNanos(120));
                Thread.sleep(200);
            }
            RabbitTemplate producer = new RabbitTemplate(connections);
            // sent as the sample's orders send them: inside a request, under its 2 s deadline, through the
            // starter's post-processor; most events are consumed after that deadline, some redelivered
            producer.addBeforePublishPostProcessors(new RabbitTracePostProcessor());
            List<String> events = new ArrayList<>();
            Random random = new Random(42);
            for (int i = 0; i < ORDERS; i++) {
                String orderNo = run + "-" + i;
                events.add(orderNo);
                if (random.nextInt(100) < 30) {
                    events.add(orderNo);
                }
            }
            Collections.shuffle(events, random);
            for (String orderNo : events) {
                try (TraceScope request = TraceContextHolder.open(TraceContext.empty().withTraceId(orderNo)
                        .withDeadline(Deadline.after(Duration.ofSeconds(2))))) {
                    producer.send(LoyaltyMessaging.ORDER_CREATED, MessageBuilder.withBody(orderNo.getBytes())
                            .setContentType(MessageProperties.CONTENT_TYPE_TEXT_PLAIN).setMessageId(orderNo)
                            .setDeliveryMode(MessageDeliveryMode.PERSISTENT).build());
                }
            }
            int duplicates = events.size() - ORDERS;

            JdbcTemplate jdbc = new JdbcTemplate(new org.springframework.jdbc.datasource.DriverManagerDataSource(
                    RealServers.jdbc().url(), RealServers.jdbc().user(), RealServers.jdbc().password()));
            String points = "SELECT COUNT(*) FROM loyalty_points WHERE order_no LIKE ?";
            Eventually.waitUntil("some points committed by the consumer",
                    () -> jdbc.queryForObject(points, Integer.class, run + "-%") >= 40);
            victim.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            int committedBeforeKill = jdbc.queryForObject(points, Integer.class, run + "-%");

            try (ConfigurableApplicationContext survivor = new SpringApplicationBuilder(SampleApplication.class)
                    .run(arguments(0).toArray(String[]::new))) {
                RabbitAdmin admin = new RabbitAdmin(connections);
                Eventually.waitUntil("every order's points, and the queue drained", () -> jdbc.queryForObject(
                        "SELECT COUNT(DISTINCT order_no) FROM loyalty_points WHERE order_no LIKE ?", Integer.class,
                        run + "-%") == ORDERS
                        && admin.getQueueInfo(LoyaltyMessaging.ORDER_CREATED).getMessageCount() == 0);
                double survivorReplays = replayed(survivor);
                System.out.printf("consumer killed with %d of %d orders' points committed; the second consumer "
                        + "acknowledged %.0f deliveries as replays (%d duplicates were sent)%n", committedBeforeKill,
                        ORDERS, survivorReplays, duplicates);

                assertThat(committedBeforeKill).as(() -> "points committed before the kill; the consumer's log ends "
                        + "with:\n" + logTail(victimPort)).isBetween(1, ORDERS - 1);
                assertThat(jdbc.queryForObject(points, Integer.class, run + "-%")).as("one row per order")
                        .isEqualTo(ORDERS);
                assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(points), 0) FROM loyalty_points WHERE order_no "
                        + "LIKE ?", Integer.class, run + "-%")).isEqualTo(ORDERS * LoyaltyListener.POINTS_PER_ORDER);
                assertThat(survivorReplays).as("each event committed before the kill came back as a replay")
                        .isGreaterThanOrEqualTo(committedBeforeKill);
            }
        } finally {
            victim.destroyForcibly();
            connections.destroy();
        }
    }
}
