package io.github.resiliencestarter.idempotent;

import java.util.Locale;

/** How an idempotent call ended; the values are the metric tags of DESIGN §9. */
public enum IdempotencyOutcome {

    /** The key was claimed and the method ran. */
    EXECUTED,

    /** The key had completed; its first result was replayed. */
    REPLAYED,

    /** The key was still in progress elsewhere; answered 409. */
    IN_PROGRESS,

    /** The key was used with a different payload; answered 422. */
    KEY_REUSED,

    /** The store failed. */
    STORE_ERROR,

    /** The execution outlived its lease and another took the key over; its completion was refused. */
    LEASE_LOST,

    /** The stored record or its response could not be read; nothing was executed. */
    CORRUPTED,

    /** No key was sent to a method that does not require one; it ran without idempotency. */
    UNPROTECTED,

    /** Observed, not enforced: the key had completed and would have been replayed; the method ran. */
    WOULD_REPLAY,

    /**
     * Observed, not enforced: the key was in progress and the duplicate would have waited for its
     * result; the method ran.
     */
    WOULD_WAIT,

    /** Observed, not enforced: the key was in progress and would have been answered 409; the method ran. */
    WOULD_REJECT,

    /**
     * Observed, not enforced: the key was used with another payload and would have been answered
     * 422; the method ran.
     */
    WOULD_422;

    /**
     * Whether this outcome is what an observed policy would have done instead of what it did.
     *
     * @return {@code true} for the {@code WOULD_} outcomes
     */
    public boolean observedOnly() {
        return name().startsWith("WOULD_");
    }

    /**
     * The lower-case tag value.
     *
     * @return the tag value
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
