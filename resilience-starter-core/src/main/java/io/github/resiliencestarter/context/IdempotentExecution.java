package io.github.resiliencestarter.context;

import java.util.Objects;

/**
 * The handle of the idempotent execution a piece of work runs in, as the engine exposes it to the
 * code inside the call (through {@link TraceContext#idempotentExecution()}): the stored key, the
 * owner token of this execution's claim, and the numbering of its outbound calls. A store that can
 * record completion inside the business transaction finds its claim here; an outbound client
 * derives downstream idempotency keys from it.
 */
public final class IdempotentExecution {

    private final String key;

    private final String ownerToken;

    private int outboundAttempt = -1;

    private int outboundSequence;

    /** The attempt whose business transaction committed with the key, or {@link #NONE_COMMITTED}. */
    private volatile int committedAttempt = NONE_COMMITTED;

    /** No attempt of the execution has committed. */
    public static final int NONE_COMMITTED = -1;

    /**
     * Creates the handle of a claimed execution.
     *
     * @param key the stored key
     * @param ownerToken the token of this execution's claim
     */
    public IdempotentExecution(String key, String ownerToken) {
        this.key = Objects.requireNonNull(key, "key");
        this.ownerToken = Objects.requireNonNull(ownerToken, "ownerToken");
    }

    /**
     * The stored key.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The token of this execution's claim; store writes are conditional on it.
     *
     * @return the owner token
     */
    public String ownerToken() {
        return ownerToken;
    }

    /**
     * The number of the next outbound call within the current attempt: 1, 2, ... and back to 1
     * when a new attempt starts, so a retried attempt (or a re-execution after a takeover) numbers
     * its calls the same way and derives the same downstream keys.
     *
     * @param attempt the current attempt number
     * @return the call's sequence number within the attempt
     */
    public synchronized int nextOutboundSequence(int attempt) {
        if (attempt != outboundAttempt) {
            outboundAttempt = attempt;
            outboundSequence = 0;
        }
        return ++outboundSequence;
    }

    /**
     * Records that an attempt's business transaction committed with the key (a store that commits
     * inside the business transaction calls this); only the first is kept.
     *
     * @param attempt the attempt number (0 outside a retry)
     */
    public void recordCommit(int attempt) {
        if (committedAttempt == NONE_COMMITTED) {
            committedAttempt = attempt;
        }
    }

    /**
     * The attempt whose business writes committed, so a later failure must not run the work again.
     *
     * @return its number, or {@link #NONE_COMMITTED}
     */
    public int committedAttempt() {
        return committedAttempt;
    }

    @Override
    public String toString() {
        return "IdempotentExecution[key=" + key + "]";
    }
}
