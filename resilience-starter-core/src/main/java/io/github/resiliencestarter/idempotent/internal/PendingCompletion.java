package io.github.resiliencestarter.idempotent.internal;

import com.alibaba.ttl.TransmittableThreadLocal;

/**
 * The claim an execution holds while its work runs, visible to a store that can record the
 * completion inside the business transaction (the JDBC store). Travels with the work to OFFLOAD
 * timeout workers (a TTL value); never inherited by new threads.
 */
public final class PendingCompletion {

    private static final TransmittableThreadLocal<PendingCompletion> CURRENT = new TransmittableThreadLocal<>() {
        @Override
        protected PendingCompletion childValue(PendingCompletion parentValue) {
            return null;
        }
    };

    private final String storedKey;

    private final String ownerToken;

    private final long ttlMillis;

    private volatile boolean registered;

    private volatile boolean markedInTransaction;

    private int outboundAttempt = -1;

    private int outboundSequence;

    /**
     * Creates a pending completion.
     *
     * @param storedKey the stored key
     * @param ownerToken the owner token
     * @param ttlMillis the record's time to live
     */
    public PendingCompletion(String storedKey, String ownerToken, long ttlMillis) {
        this.storedKey = storedKey;
        this.ownerToken = ownerToken;
        this.ttlMillis = ttlMillis;
    }

    /**
     * The pending completion of the current thread.
     *
     * @return it, or {@code null} outside an idempotent execution
     */
    public static PendingCompletion current() {
        return CURRENT.get();
    }

    /**
     * Binds {@code pending} to the current thread until the returned scope closes.
     *
     * @param pending the pending completion
     * @return the scope
     */
    public static AutoCloseable bind(PendingCompletion pending) {
        PendingCompletion previous = CURRENT.get();
        CURRENT.set(pending);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** @return the stored key */
    public String storedKey() {
        return storedKey;
    }

    /** @return the owner token */
    public String ownerToken() {
        return ownerToken;
    }

    /** @return the record's time to live */
    public long ttlMillis() {
        return ttlMillis;
    }

    /**
     * Claims the right to write the marker in the transaction that is beginning; only the
     * outermost transaction of an attempt gets it.
     *
     * @return {@code true} for the first caller since the last rollback
     */
    public synchronized boolean tryRegister() {
        if (registered) {
            return false;
        }
        registered = true;
        return true;
    }

    /**
     * Records how the transaction that carried the marker ended.
     *
     * @param committed {@code true} when it committed
     */
    public synchronized void transactionEnded(boolean committed) {
        if (committed) {
            markedInTransaction = true;
        } else {
            registered = false;
        }
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

    /** @return whether a business transaction committed with the COMPLETED marker */
    public boolean markedInTransaction() {
        return markedInTransaction;
    }
}
