package io.github.resiliencestarter.sample.inventory;

import io.github.resiliencestarter.retry.RetryableException;

/** Someone changed the stock row between read and update; reading again and retrying is safe. */
public class StockVersionConflict extends RetryableException {

    private static final long serialVersionUID = 1L;

    StockVersionConflict(long productId) {
        super("STOCK_VERSION_CONFLICT", "Stock of product " + productId + " changed concurrently");
    }
}
