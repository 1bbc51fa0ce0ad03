package io.github.resiliencestarter.circuit;

import java.util.Locale;

/** Where a circuit breaker is; {@link #RAMPING} is closed, admitting a rising share of calls. */
public enum CircuitState {

    /** Every call goes through and is counted. */
    CLOSED,

    /** Closed again after half-open probes succeeded; a rising share of calls is admitted. */
    RAMPING,

    /** No call goes through until the wait in the open state has passed. */
    OPEN,

    /** A few probes go through; their outcome closes or opens the circuit. */
    HALF_OPEN,

    /** Opened by hand; stays open until closed by hand. */
    FORCED_OPEN,

    /** Switched off by hand: every call goes through and none is counted. */
    DISABLED;

    /**
     * The lower-case tag value, for example {@code half_open}.
     *
     * @return the tag value
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
