package io.github.resiliencestarter.sample.order;

import java.math.BigDecimal;
import java.time.LocalDateTime;

/**
 * An order as the API shows it.
 *
 * @param orderNo the order number
 * @param userId the buyer
 * @param productId the product
 * @param quantity how many
 * @param amount the price
 * @param status PENDING or PAID
 * @param version the row version
 * @param createdAt when the order was created (to the millisecond, as stored): two runs of one
 *     request answer differently
 */
public record OrderView(String orderNo, long userId, long productId, int quantity, BigDecimal amount, String status,
        int version, LocalDateTime createdAt) {

    static OrderView of(Order order) {
        return new OrderView(order.getOrderNo(), order.getUserId(), order.getProductId(), order.getQuantity(),
                order.getAmount(), order.getStatus(), order.getVersion(), order.getCreatedAt());
    }
}
