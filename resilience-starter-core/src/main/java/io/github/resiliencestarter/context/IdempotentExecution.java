package io.github.resiliencestarter.context;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

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

    /** The context the first transaction that committed with the key ran in, or {@code null}. */
    private @Nullable TraceContext committed;

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
     * Records that the business transaction running in {@code context} committed with the key (a
     * store that commits inside the business transaction calls this); only the first is kept.
     *
     * @param context the trace context the transaction ran in
     */
    public synchronized void recordCommit(TraceContext context) {
        if (committed == null) {
            committed = context;
        }
    }

    /**
     * The attempt whose business writes committed, as numbered by the innermost retry around it.
     *
     * @return its number, or {@link #NONE_COMMITTED}
     */
    public synchronized int committedAttempt() {
        return committed == null ? NONE_COMMITTED : committed.attempt();
    }

    /**
     * Whether an attempt of the retried call {@code retried} committed the execution's writes, at
     * any depth: a retry of that call would write them again. A retry that began after the commit
     * (one calling a downstream, say) is not concerned.
     *
     * @param retried the context of the retried call ({@link TraceContext#attemptsOf()} of its attempts)
     * @return {@code true} when one of its attempts committed
     */
    public synchronized boolean committedIn(TraceContext retried) {
        return committed != null && attemptUnder(committed, retried) >= 0;
    }

    /**
     * Whether the transaction running in {@code context} must not commit: it belongs to another
     * attempt of a retried call one of whose attempts already committed the execution's writes.
     *
     * @param context the trace context the transaction runs in
     * @return {@code true} to refuse the commit
     */
    public synchronized boolean isRepeatedAttempt(TraceContext context) {
        if (committed == null) {
            return false;
        }
        for (TraceContext attempt = context; attempt != null; attempt = attempt.attemptsOf()) {
            TraceContext retried = attempt.attemptsOf();
            if (retried != null) {
                int committedUnder = attemptUnder(committed, retried);
                if (committedUnder >= 0 && committedUnder != attempt.attempt()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The number, under {@code retried}, of the attempt {@code context} runs in; -1 when outside it. */
    private static int attemptUnder(TraceContext context, TraceContext retried) {
        for (TraceContext attempt = context; attempt != null; attempt = attempt.attemptsOf()) {
            if (attempt.attemptsOf() == retried) {
                return attempt.attempt();
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return "IdempotentExecution[key=" + key + "]";
    }
}
