package io.github.resiliencestarter.sample.order;

import io.github.resiliencestarter.annotation.IdempotencyExempt;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Timeout;
import jakarta.validation.Valid;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The order API. */
@RestController
public class OrderController {

    private final OrderService orders;

    OrderController(OrderService orders) {
        this.orders = orders;
    }

    /**
     * Creates an order at most once per order number: duplicates replay the first response.
     *
     * @param request the order
     * @return the created order
     */
    @PostMapping("/order/create")
    @Timeout("${sample.order-timeout:2s}")
    @Idempotent(key = "#request.orderNo", name = "ORDER_CREATE", ttl = "30d")
    public OrderView create(@Valid @RequestBody OrderRequest request) {
        return orders.create(request);
    }

    /**
     * Pays an order; repeating it returns the paid order.
     *
     * @param orderNo the order number
     * @return the paid order
     */
    @PostMapping("/order/{orderNo}/pay")
    @IdempotencyExempt("a status-guarded transition (rule I-7): paying a paid order changes nothing")
    public OrderView pay(@PathVariable String orderNo) {
        return orders.pay(orderNo);
    }

    /**
     * Reads an order.
     *
     * @param orderNo the order number
     * @return the order
     */
    @GetMapping("/order/{orderNo}")
    public OrderView get(@PathVariable String orderNo) {
        return orders.get(orderNo);
    }
}
