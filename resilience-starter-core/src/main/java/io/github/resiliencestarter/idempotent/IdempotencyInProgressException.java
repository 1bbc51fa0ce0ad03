package io.github.resiliencestarter.idempotent;

/**
 * The same key is still being executed by another request, and this one did not wait (REJECT) or
 * stopped waiting (wait limit or deadline). HTTP 409 with {@code Retry-After}.
 */
public class IdempotencyInProgressException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    private final long retryAfterSeconds;

    /**
     * Creates the exception.
     *
     * @param operation the operation
     * @param retryAfterSeconds a sensible wait before trying again
     */
    public IdempotencyInProgressException(String operation, long retryAfterSeconds) {
        super("IDEMPOTENCY_IN_PROGRESS", "A request with the same idempotency key is still in progress for "
                + operation, null);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /**
     * A sensible wait before trying again.
     *
     * @return seconds, at least 1
     */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
