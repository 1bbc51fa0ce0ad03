package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.ResilienceException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A failure that is transient and safe to retry. Extend it for business errors that are worth
 * another attempt (a lock held elsewhere, a dependency briefly unavailable); the error code
 * travels into problem responses and logs.
 */
public class RetryableException extends ResilienceException {

    private static final long serialVersionUID = 1L;

    private final String errorCode;

    private final transient @Nullable Duration retryAfter;

    /**
     * Creates the exception.
     *
     * @param errorCode a stable, machine-readable code
     * @param message what happened
     */
    public RetryableException(String errorCode, String message) {
        this(errorCode, message, null, null);
    }

    /**
     * Creates the exception.
     *
     * @param errorCode a stable, machine-readable code
     * @param message what happened
     * @param retryAfter how long the source asked to wait, or {@code null}
     * @param cause the underlying error, or {@code null}
     */
    public RetryableException(String errorCode, String message, @Nullable Duration retryAfter,
            @Nullable Throwable cause) {
        super(message, cause);
        this.errorCode = errorCode;
        this.retryAfter = retryAfter;
    }

    /**
     * The error code.
     *
     * @return the code
     */
    public String errorCode() {
        return errorCode;
    }

    /**
     * How long the source asked to wait before retrying, or {@code null}.
     *
     * @return the wait
     */
    public @Nullable Duration retryAfter() {
        return retryAfter;
    }
}
