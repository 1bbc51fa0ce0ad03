package io.github.resiliencestarter.sample.loyalty;

import io.github.resiliencestarter.annotation.IdempotencyExempt;

import java.util.Map;
import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** What scripts/demo.sh shows of the consumer: an order's points, and an event sent again on purpose. */
@RestController
@Profile("rabbit")
public class LoyaltyController {

    private final JdbcTemplate jdbc;

    private final OrderCreatedPublisher events;

    LoyaltyController(JdbcTemplate jdbc, OrderCreatedPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * An order's loyalty points.
     *
     * @param orderNo the order number
     * @return the rows awarded and their points
     */
    @GetMapping("/loyalty/{orderNo}")
    public Map<String, Object> points(@PathVariable String orderNo) {
        return jdbc.queryForMap("SELECT COUNT(*) AS \"awards\", COALESCE(SUM(points), 0) AS \"points\" "
                + "FROM loyalty_points WHERE order_no = ?", orderNo);
    }

    /**
     * Sends an order's created event again, as a producer does whose broker confirm was lost.
     *
     * @param orderNo the order number
     */
    @PostMapping("/loyalty/{orderNo}/resend")
    @IdempotencyExempt("sends a copy on purpose: the consumer's @Idempotent acknowledges every copy after the first unrun")
    public void resend(@PathVariable String orderNo) {
        events.orderCreated(orderNo);
    }
}
