package io.github.resiliencestarter.sample.inventory;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

/**
 * A request to reserve stock for an order.
 *
 * @param orderNo the order
 * @param productId the product
 * @param quantity how many units
 */
public record ReserveRequest(@NotBlank String orderNo, @NotNull @Positive Long productId,
        @NotNull @Min(1) @Max(1000) Integer quantity) {
}
