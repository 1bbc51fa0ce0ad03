package io.github.resiliencestarter.sample.order;

import io.github.resiliencestarter.sample.BusinessProblem;
import io.github.resiliencestarter.sample.inventory.InventoryClient;
import io.github.resiliencestarter.sample.loyalty.OrderCreatedPublisher;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/** Creates and pays orders. */
@Service
public class OrderService {

    private final OrderMapper orders;

    private final InventoryClient inventory;

    private final TransactionTemplate transaction;

    private final ObjectProvider<OrderCreatedPublisher> events;

    OrderService(OrderMapper orders, InventoryClient inventory, TransactionTemplate transaction,
            ObjectProvider<OrderCreatedPublisher> events) {
        this.orders = orders;
        this.inventory = inventory;
        this.transaction = transaction;
        this.events = events;
    }

    /**
     * Creates an order: reserves stock over HTTP (retried, with a derived idempotency key), then
     * inserts the order; on the JDBC store the idempotency record completes in that same
     * transaction. Nothing here looks for an existing order and the order number is no unique key:
     * {@code @Idempotent} on the controller alone makes a duplicate a replay, and the end-to-end
     * tests count the orders per number to prove it (docs/internals/decisions.md). With RabbitMQ (profile
     * {@code rabbit}) the order-created event is sent after the commit.
     *
     * @param request the request
     * @return the order
     */
    public OrderView create(OrderRequest request) {
        inventory.reserve(request.orderNo(), request.productId(), request.quantity());
        OrderView created = transaction.execute(status -> {
            Order order = new Order();
            order.setOrderNo(request.orderNo());
            order.setUserId(request.userId());
            order.setProductId(request.productId());
            order.setQuantity(request.quantity());
            order.setAmount(request.amount());
            order.setStatus("PENDING");
            order.setVersion(0);
            // to the millisecond, as the column keeps it: the answer and a later read agree
            LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.MILLIS);
            order.setCreatedAt(now);
            order.setUpdatedAt(now);
            orders.insert(order);
            return OrderView.of(order);
        });
        events.ifAvailable(publisher -> publisher.orderCreated(request.orderNo()));
        return created;
    }

    /**
     * Pays an order: PENDING → PAID by a conditional update, so a repeat returns the paid order
     * and nothing is paid twice (rule I-7).
     *
     * @param orderNo the order number
     * @return the paid order
     */
    @Transactional
    public OrderView pay(String orderNo) {
        int changed = orders.markPaid(orderNo, LocalDateTime.now());
        Order order = find(orderNo);
        if (changed == 0 && !"PAID".equals(order.getStatus())) {
            throw new BusinessProblem(HttpStatus.CONFLICT, "order-state",
                    "Order " + orderNo + " is " + order.getStatus() + " and cannot be paid");
        }
        return OrderView.of(order);
    }

    /**
     * Reads an order.
     *
     * @param orderNo the order number
     * @return the order
     */
    public OrderView get(String orderNo) {
        return OrderView.of(find(orderNo));
    }

    private Order find(String orderNo) {
        Order order = orders.findByOrderNo(orderNo);
        if (order == null) {
            throw new BusinessProblem(HttpStatus.NOT_FOUND, "order-not-found", "No order " + orderNo);
        }
        return order;
    }
}
