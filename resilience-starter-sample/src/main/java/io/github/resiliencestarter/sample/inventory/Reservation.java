package io.github.resiliencestarter.sample.inventory;

/**
 * A stock reservation.
 *
 * @param orderNo the order it belongs to
 * @param productId the product
 * @param quantity how many units
 * @param remaining units left afterwards
 */
public record Reservation(String orderNo, long productId, int quantity, int remaining) {
}
