package io.github.resiliencestarter.idempotent;

/** The key was used before with a different request payload (HTTP 422). Nothing is executed. */
public class IdempotencyKeyReusedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operation the operation
     */
    public IdempotencyKeyReusedException(String operation) {
        super("IDEMPOTENCY_KEY_REUSED", "The idempotency key was already used for " + operation
                + " with a different request payload", null);
    }
}
