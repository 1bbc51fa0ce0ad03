package io.github.resiliencestarter.idempotent;

/**
 * A keyed request's body is larger than what may be buffered to check and store it (HTTP 413).
 * Nothing was claimed or executed.
 */
public class IdempotentPayloadTooLargeException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param limit the most that may be buffered, in bytes
     */
    public IdempotentPayloadTooLargeException(long limit) {
        super("IDEMPOTENT_PAYLOAD_TOO_LARGE", "The request body is larger than " + limit + " bytes, the most a "
                + "request with an idempotency key may carry here; it was not executed", null);
    }
}
