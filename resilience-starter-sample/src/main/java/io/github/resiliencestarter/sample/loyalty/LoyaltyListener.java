package io.github.resiliencestarter.sample.loyalty;

import io.github.resiliencestarter.annotation.Idempotent;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Awards loyalty points for a created order, once per order however often its event arrives. The
 * points row has no unique key: the listener's {@code @Idempotent} is the only defence, and on the
 * JDBC store its completion commits in the same transaction as the row, so a consumer that dies
 * after the commit and before its acknowledgement gets a replay on the redelivery.
 */
@Component
@Profile("rabbit")
public class LoyaltyListener {

    /** Points per order. */
    public static final int POINTS_PER_ORDER = 10;

    private final JdbcTemplate jdbc;

    LoyaltyListener(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Awards the points of one order.
     *
     * @param orderNo the order number (the event's body)
     */
    @RabbitListener(queues = LoyaltyMessaging.ORDER_CREATED)
    @Idempotent(name = "LOYALTY_POINTS", key = "#orderNo", ttl = "30d")
    @Transactional
    public void onOrderCreated(String orderNo) {
        jdbc.update("INSERT INTO loyalty_points (order_no, points) VALUES (?, ?)", orderNo, POINTS_PER_ORDER);
    }
}
