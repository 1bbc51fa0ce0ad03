package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * The key completed, but its first response cannot be replayed: it was larger than the configured
 * limit, or the stored record is unreadable or does not match the method's return type. The
 * business method is not executed again (HTTP 409).
 */
public class IdempotentReplayException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message why the response cannot be replayed
     * @param cause the decoding error, or {@code null}
     */
    public IdempotentReplayException(String message, @Nullable Throwable cause) {
        super("IDEMPOTENT_RESPONSE_UNAVAILABLE", message, cause);
    }
}
