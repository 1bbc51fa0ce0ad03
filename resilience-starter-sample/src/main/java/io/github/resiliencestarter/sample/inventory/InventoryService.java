package io.github.resiliencestarter.sample.inventory;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.sample.BusinessProblem;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Reserves stock. */
@Service
public class InventoryService {

    private final StockMapper stock;

    InventoryService(StockMapper stock) {
        this.stock = stock;
    }

    /**
     * Reserves stock for an order, once: a second reservation of the same order returns the first.
     * A version conflict is retried, each attempt in a fresh transaction; it is safe to repeat
     * because the decrement only applies to the version it read.
     *
     * @param orderNo the order
     * @param productId the product
     * @param quantity how many units
     * @return the reservation
     */
    @Retry(name = "stock", idempotent = true, retryFor = StockVersionConflict.class)
    @Transactional
    public Reservation reserve(String orderNo, long productId, int quantity) {
        Stock current = stock.selectById(productId);
        if (current == null) {
            throw new BusinessProblem(HttpStatus.NOT_FOUND, "product-not-found", "No product " + productId);
        }
        Integer already = stock.reservedFor(orderNo);
        if (already != null) {
            return new Reservation(orderNo, productId, already, current.getQuantity());
        }
        if (current.getQuantity() < quantity) {
            throw new BusinessProblem(HttpStatus.CONFLICT, "insufficient-stock", "Only " + current.getQuantity()
                    + " units of product " + productId + " left");
        }
        if (stock.decrement(productId, quantity, current.getVersion()) == 0) {
            throw new StockVersionConflict(productId);
        }
        stock.insertReservation(orderNo, productId, quantity);
        return new Reservation(orderNo, productId, quantity, current.getQuantity() - quantity);
    }

    /**
     * The reservation an order made, if any: how a caller learns the outcome of a reservation whose
     * response was lost (the idempotency store's documented crash window).
     *
     * @param orderNo the order
     * @param productId the product
     * @return the reservation
     */
    public Reservation find(String orderNo, long productId) {
        Integer reserved = stock.reservedFor(orderNo);
        if (reserved == null) {
            throw new BusinessProblem(HttpStatus.NOT_FOUND, "reservation-not-found", "No reservation for " + orderNo);
        }
        Integer left = stock.available(productId);
        return new Reservation(orderNo, productId, reserved, left == null ? 0 : left);
    }

    /**
     * Units left of a product.
     *
     * @param productId the product
     * @return the units
     */
    public int available(long productId) {
        Stock current = stock.selectById(productId);
        if (current == null) {
            throw new BusinessProblem(HttpStatus.NOT_FOUND, "product-not-found", "No product " + productId);
        }
        return current.getQuantity();
    }
}
