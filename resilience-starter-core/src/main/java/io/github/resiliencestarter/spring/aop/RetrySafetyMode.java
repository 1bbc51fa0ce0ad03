package io.github.resiliencestarter.spring.aop;

/**
 * What the startup safety gate does with a {@code @Retry} method that is not known to be
 * idempotent (rules R-1, C-2, O-5).
 */
public enum RetrySafetyMode {

    /** Fail the application start, naming the method and the fixes. The default. */
    FAIL,

    /**
     * Log a warning at startup, and at run time retry only failures where the request was never
     * sent (connection refused, connect timeout): the one kind of retry that cannot duplicate an
     * effect.
     */
    WARN,

    /** Retry as configured, without a word. For teams that enforce idempotency elsewhere. */
    ALLOW
}
