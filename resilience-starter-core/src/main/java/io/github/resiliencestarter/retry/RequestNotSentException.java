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

    /**
     * For a request this process itself decided not to send, without a transport error; no stack
     * trace (such refusals come by the thousand).
     *
     * @param message why it was not sent
     */
    protected RequestNotSentException(String message) {
        super(message, null, false);
    }
}
