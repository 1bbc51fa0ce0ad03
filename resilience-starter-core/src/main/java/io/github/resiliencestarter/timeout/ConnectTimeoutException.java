package io.github.resiliencestarter.timeout;

import org.jspecify.annotations.Nullable;

/** A connection could not be established in time; nothing was sent. Retryable by default. */
public class ConnectTimeoutException extends ResilienceTimeoutException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what timed out
     * @param cause the transport's own exception, or {@code null}
     */
    public ConnectTimeoutException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public TimeoutKind kind() {
        return TimeoutKind.CONNECT;
    }
}
