package io.github.resiliencestarter.idempotent;

/** The states of an idempotency record. */
public enum IdempotencyStatus {

    /** Claimed by an owner that is executing; its lease says until when the claim holds. */
    IN_PROGRESS,

    /**
     * The work's business transaction committed together with this state (a store that completes
     * inside the transaction, such as the JDBC store); the response follows right after the
     * commit. Never taken over: duplicates wait for the response, and once the lease has run out
     * without one they get an error instead of a second execution.
     */
    COMMITTED,

    /** Executed; the record holds the response to replay until it expires. */
    COMPLETED
}
