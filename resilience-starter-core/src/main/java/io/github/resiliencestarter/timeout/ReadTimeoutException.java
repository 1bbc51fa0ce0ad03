package io.github.resiliencestarter.timeout;

import org.jspecify.annotations.Nullable;

/**
 * Connected, but the answer did not arrive in time. The remote side may have acted on the request,
 * which is why only idempotent calls may retry it. Retryable by default.
 */
public class ReadTimeoutException extends ResilienceTimeoutException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what timed out
     * @param cause the transport's own exception, or {@code null}
     */
    public ReadTimeoutException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public TimeoutKind kind() {
        return TimeoutKind.READ;
    }
}
