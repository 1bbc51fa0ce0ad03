package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.ResilienceException;
import org.jspecify.annotations.Nullable;

/**
 * A failure that another attempt cannot fix: bad input, a broken business rule, insufficient
 * balance (rule R-2). Never retried, whatever {@code retryFor} says.
 */
public class NonRetryableException extends ResilienceException {

    private static final long serialVersionUID = 1L;

    private final String errorCode;

    /**
     * Creates the exception.
     *
     * @param errorCode a stable, machine-readable code
     * @param message what happened
     */
    public NonRetryableException(String errorCode, String message) {
        this(errorCode, message, null);
    }

    /**
     * Creates the exception.
     *
     * @param errorCode a stable, machine-readable code
     * @param message what happened
     * @param cause the underlying error, or {@code null}
     */
    public NonRetryableException(String errorCode, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.errorCode = errorCode;
    }

    /**
     * Creates the exception, without a stack trace when {@code writableStackTrace} is false.
     *
     * @param errorCode a stable, machine-readable code
     * @param message what happened
     * @param cause the underlying error, or {@code null}
     * @param writableStackTrace whether the stack trace is recorded
     */
    protected NonRetryableException(String errorCode, String message, @Nullable Throwable cause,
            boolean writableStackTrace) {
        super(message, cause, writableStackTrace);
        this.errorCode = errorCode;
    }

    /**
     * The error code.
     *
     * @return the code
     */
    public String errorCode() {
        return errorCode;
    }
}
