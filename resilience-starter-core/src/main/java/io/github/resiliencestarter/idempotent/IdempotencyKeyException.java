package io.github.resiliencestarter.idempotent;

/** The idempotency key is missing, blank, too long or contains control characters (HTTP 400). */
public class IdempotencyKeyException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the key (never the key itself, which may be hostile)
     */
    public IdempotencyKeyException(String message) {
        super("IDEMPOTENCY_KEY_INVALID", message, null);
    }
}
