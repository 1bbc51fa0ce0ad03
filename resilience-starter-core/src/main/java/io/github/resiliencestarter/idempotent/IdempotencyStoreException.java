package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * The idempotency store could not be reached or answered badly. Fail-closed (the default) turns
 * it into HTTP 503 without executing the business method.
 */
public class IdempotencyStoreException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed
     * @param cause the store client's error
     */
    public IdempotencyStoreException(String message, @Nullable Throwable cause) {
        super("IDEMPOTENCY_STORE_UNAVAILABLE", message, cause);
    }
}
