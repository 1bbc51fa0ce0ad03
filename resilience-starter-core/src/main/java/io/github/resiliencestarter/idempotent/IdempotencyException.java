package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.retry.NonRetryableException;
import org.jspecify.annotations.Nullable;

/**
 * Root of the idempotency failures, one subtype per failure mode. None is retried by
 * {@code @Retry}: each says something another immediate attempt cannot change.
 */
public abstract class IdempotencyException extends NonRetryableException {

    private static final long serialVersionUID = 1L;

    protected IdempotencyException(String errorCode, String message, @Nullable Throwable cause) {
        super(errorCode, message, cause);
    }
}
