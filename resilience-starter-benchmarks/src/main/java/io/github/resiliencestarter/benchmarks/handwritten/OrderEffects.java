package io.github.resiliencestarter.benchmarks.handwritten;

import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Objects;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;

/**
 * The business call every variant runs: one {@code INSERT}. The table has no unique key on the
 * order's key, so nothing but the idempotency in front of it keeps a second execution out.
 */
@Component
public class OrderEffects {

    private final JdbcTemplate jdbc;

    /**
     * Creates the table when missing.
     *
     * @param jdbc the application's database
     */
    public OrderEffects(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        jdbc.execute("CREATE TABLE IF NOT EXISTS comparison_orders (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
                + " order_key VARCHAR(128) NOT NULL, amount INT NOT NULL,"
                + " created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)");
    }

    /**
     * Inserts the order.
     *
     * @param request the order
     * @return its receipt
     */
    public Receipt create(OrderRequest request) {
        KeyHolder id = new GeneratedKeyHolder();
        jdbc.update(connection -> {
            PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO comparison_orders (order_key, amount) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS);
            insert.setString(1, request.id());
            insert.setInt(2, request.amount());
            return insert;
        }, id);
        return new Receipt(Objects.requireNonNull(id.getKey(), "generated id").longValue(), request.id(),
                request.amount());
    }
}
