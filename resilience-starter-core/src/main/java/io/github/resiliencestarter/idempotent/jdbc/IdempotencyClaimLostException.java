package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.idempotent.IdempotencyException;

/**
 * The execution's claim was taken over before its business transaction could commit; the
 * transaction is rolled back so the business effect happens only once (HTTP 409).
 */
public class IdempotencyClaimLostException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param storedKey the stored key (not the client's raw key)
     */
    public IdempotencyClaimLostException(String storedKey) {
        super("IDEMPOTENCY_CLAIM_LOST", "The idempotency claim expired and was taken over before the business "
                + "transaction committed; it was rolled back", null);
    }
}
