package io.github.resiliencestarter.retry.internal;

/** Why a retried call stopped, with the rule that stopped it. */
public enum RetryStop {

    /** The failure is not one to retry. */
    NOT_RETRYABLE("not retried"),

    /** Every attempt was made. */
    EXHAUSTED("attempts exhausted (rule R-3)"),

    /** Another attempt could not finish before the deadline. */
    NO_TIME("no time left in the deadline for another attempt (rule C-1)"),

    /** An earlier attempt committed its writes with the idempotency key: another would repeat them. */
    COMMITTED("an attempt already committed its writes, running it again would repeat them (rule R-1)"),

    /** A policy inside the loop, such as an open circuit breaker, would refuse the next attempt. */
    GATE_CLOSED("the next attempt would be refused (rule R-6)"),

    /** The retry budget refused another attempt. */
    BUDGET_DENIED("retry budget exhausted (rule R-6)"),

    /** Observe mode: a retry was due and was counted instead of made. */
    OBSERVED("observe mode: a retry was due and was counted, not made (docs/rollout.md)"),

    /** The caller was interrupted while waiting. */
    INTERRUPTED("interrupted while waiting to retry");

    private final String reason;

    RetryStop(String reason) {
        this.reason = reason;
    }

    /**
     * The sentence a summary and a log line give.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
