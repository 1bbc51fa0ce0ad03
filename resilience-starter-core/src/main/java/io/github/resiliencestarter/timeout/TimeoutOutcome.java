package io.github.resiliencestarter.timeout;

import java.util.Locale;

/** How a guarded call ended; the values are the metric tags of DESIGN §9. */
public enum TimeoutOutcome {

    /** Completed within the deadline, whatever it returned or threw. */
    SUCCESS,

    /** The deadline passed while the call ran. */
    TIMEOUT,

    /** The OFFLOAD executor was saturated; the call did not run. */
    REJECTED,

    /** No time was left; the call did not run. */
    BUDGET_SPENT,

    /** Observed, not enforced: the call ran past the deadline it would have had, and was not cut. */
    WOULD_TIMEOUT;

    /**
     * The lower-case tag value.
     *
     * @return the tag value
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
