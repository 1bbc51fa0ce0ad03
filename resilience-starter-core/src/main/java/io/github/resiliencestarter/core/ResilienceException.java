package io.github.resiliencestarter.core;

import org.jspecify.annotations.Nullable;

/**
 * Root of every exception the starter raises itself, so callers can catch "the resilience layer
 * said no" in one place while business exceptions pass through untouched.
 */
public abstract class ResilienceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    protected ResilienceException(String message) {
        super(message);
    }

    protected ResilienceException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * For refusals raised many times a second, whose stack says nothing the message does not.
     *
     * @param message what happened
     * @param cause the underlying error, or {@code null}
     * @param writableStackTrace whether the stack trace is recorded
     */
    protected ResilienceException(String message, @Nullable Throwable cause, boolean writableStackTrace) {
        super(message, cause, true, writableStackTrace);
    }
}
