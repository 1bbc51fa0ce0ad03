package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.ResilienceException;

/**
 * Marks a failure that happened before the request left this process or reached the remote
 * side (connection refused, connect timeout). Such failures are safe to retry even for
 * operations that are not idempotent, because nothing was executed remotely.
 */
public class RequestNotSentException extends ResilienceException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed
     * @param cause the transport's error
     */
    public RequestNotSentException(String message, Throwable cause) {
        super(message, cause);
    }
}
