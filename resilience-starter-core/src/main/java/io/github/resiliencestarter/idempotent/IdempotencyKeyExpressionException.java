package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * The server's own key or fingerprint expression failed on a request (HTTP 500): a fault of the
 * code, not of the client, so the answer names nothing internal and the log keeps the details.
 */
public class IdempotencyKeyExpressionException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed, for the log (names the operation and the expression)
     * @param cause the evaluation failure
     */
    public IdempotencyKeyExpressionException(String message, @Nullable Throwable cause) {
        super("IDEMPOTENCY_KEY_UNAVAILABLE", message, cause);
    }
}
