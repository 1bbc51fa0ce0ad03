package io.github.resiliencestarter.timeout;

import io.github.resiliencestarter.core.ResilienceException;

/**
 * The timeout executor is saturated, so the work was refused at once instead of running on the
 * caller's thread (which would silently drop the timeout). Rendered as HTTP 503.
 */
public class TimeoutRejectedException extends ResilienceException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operation the refused operation
     * @param cause the executor's rejection
     */
    public TimeoutRejectedException(String operation, Throwable cause) {
        super("Timeout executor saturated; " + operation + " was rejected without running", cause);
    }
}
