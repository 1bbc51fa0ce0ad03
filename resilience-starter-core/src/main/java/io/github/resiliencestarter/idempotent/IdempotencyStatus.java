package io.github.resiliencestarter.idempotent;

/** The two states of an idempotency record. */
public enum IdempotencyStatus {

    /** Claimed by an owner that is executing; its lease says until when the claim holds. */
    IN_PROGRESS,

    /** Executed; the record holds the response to replay until it expires. */
    COMPLETED
}
