package io.github.resiliencestarter.idempotent;

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
    UNPROTECTED;

    /**
     * The lower-case tag value.
     *
     * @return the tag value
     */
    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
