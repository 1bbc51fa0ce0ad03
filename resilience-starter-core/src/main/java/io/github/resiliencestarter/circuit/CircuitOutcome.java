package io.github.resiliencestarter.circuit;

import java.util.Locale;

/** What one call through a circuit breaker contributed; the values are metric tags. */
public enum CircuitOutcome {

    /** Went through and succeeded in time (or the downstream answered with a non-transient error). */
    SUCCESS,

    /** Went through and succeeded, slower than the slow-call duration. */
    SLOW,

    /** Went through and failed in a way that counts against the downstream. */
    FAILURE,

    /** Went through, and its outcome does not count (the caller's deadline cut it, for instance). */
    IGNORED,

    /** Refused: the circuit is open, or half-open with every probe taken. */
    NOT_PERMITTED,

    /** Refused by the recovery ramp: above the share of calls admitted so far. */
    RAMP_REJECTED;

    /**
     * The lower-case tag value, for example {@code not_permitted}.
     *
     * @return the tag value
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
