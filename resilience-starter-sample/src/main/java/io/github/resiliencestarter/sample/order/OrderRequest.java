package io.github.resiliencestarter.sample.order;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import java.math.BigDecimal;

/**
 * A request to create an order.
 *
 * @param orderNo the globally unique order number, also the idempotency key
 * @param userId the buyer
 * @param productId the product (1 to 3 are seeded)
 * @param quantity how many
 * @param amount the price paid
 */
public record OrderRequest(
        @NotBlank @Pattern(regexp = "[A-Za-z0-9_-]{1,64}") String orderNo,
        @NotNull @Positive Long userId,
        @NotNull @Positive Long productId,
        @NotNull @Min(1) @Max(1000) Integer quantity,
        @NotNull @DecimalMin("0.01") @Digits(integer = 10, fraction = 2) BigDecimal amount) {
}
