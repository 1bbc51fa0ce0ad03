package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.RealServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An order's event is sent at the end of {@code POST /order/create}, inside the request and its
 * {@code @Timeout("2s")}. Its points are awarded however long after that deadline the event is
 * consumed: after its first delivery failed and it was requeued, and after it waited in the queue
 * while the consumer was down. (The consumer killed mid-stream is {@code MessageConsumerCrashTest}.)
 */
class LoyaltyEventsOutliveTheirRequestTest {

    /** The sample's own order timeout: the request's deadline is over this long after it was sent. */
    private static final Duration ORDER_TIMEOUT = Duration.ofSeconds(2);

    private static ConfigurableApplicationContext sample;

    private static SampleHttp http;

    private static JdbcTemplate jdbc;

    private final String run = "L" + TraceIds.generate().substring(0, 8);

    @BeforeAll
    static void start() {
        RealServers.Jdbc db = RealServers.jdbc();
        sample = new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
                "--spring.profiles.active=mysql,rabbit", "--spring.datasource.url=" + db.url(),
                "--spring.datasource.username=" + db.user(), "--spring.datasource.password=" + db.password(),
                "--RABBIT_URL=" + RealServers.rabbitUrl(), "--resilience.idempotent.store=jdbc",
                "--sample.order-timeout=" + ORDER_TIMEOUT.toMillis() + "ms", "--logging.level.root=WARN");
        http = new SampleHttp(Integer.parseInt(sample.getEnvironment().getProperty("local.server.port")));
        jdbc = sample.getBean(JdbcTemplate.class);
    }

    @AfterAll
    static void stop() {
        if (sample != null) {
            sample.close();
        }
    }

    private int points(String orderNo) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM loyalty_points WHERE order_no = ?", Integer.class, orderNo);
    }

    /**
     * Creates an order; the request's deadline is over when the returned one is (the server's began
     * before the answer came back).
     */
    private Deadline create(String orderNo) {
        assertThat(http.createOrder(orderNo, 1, 1, "1.00").statusCode()).isEqualTo(200);
        return Deadline.after(ORDER_TIMEOUT);
    }

    @Test
    void anOrdersPointsAreAwardedWhenItsEventIsRequeuedPastTheRequestsDeadline() {
        String orderNo = run + "-requeued";
        // every delivery fails while the table is away, and the broker requeues the event
        jdbc.execute("RENAME TABLE loyalty_points TO loyalty_points_away");
        try {
            Deadline requestOver = create(orderNo);
            Eventually.waitUntil("the request's deadline past", requestOver::isExpired);
        } finally {
            jdbc.execute("RENAME TABLE loyalty_points_away TO loyalty_points");
        }

        Eventually.waitUntil("the order's points", () -> points(orderNo) == 1);
    }

    @Test
    void anOrdersPointsAreAwardedWhenItsEventWaitedForTheConsumerPastTheRequestsDeadline() {
        String orderNo = run + "-waited";
        RabbitListenerEndpointRegistry consumers = sample.getBean(RabbitListenerEndpointRegistry.class);
        consumers.stop();
        try {
            Deadline requestOver = create(orderNo);
            Eventually.waitUntil("the request's deadline past", requestOver::isExpired);
            assertThat(points(orderNo)).as("nothing consumed while the consumer is down").isZero();
        } finally {
            consumers.start();
        }

        Eventually.waitUntil("the order's points", () -> points(orderNo) == 1);
    }
}
