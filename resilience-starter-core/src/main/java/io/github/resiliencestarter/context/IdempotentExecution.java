package io.github.resiliencestarter.context;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The handle of the idempotent execution a piece of work runs in, as the engine exposes it to the
 * code inside the call (through {@link TraceContext#idempotentExecution()}): the stored key, the
 * owner token of this execution's claim, and the places of its outbound calls. A store that can
 * record completion inside the business transaction finds its claim here; an outbound client
 * derives downstream idempotency keys from it.
 */
public final class IdempotentExecution {

    private final String key;

    private final String ownerToken;

    /** How many calls (outbound requests and retried calls) each scope of calls has made. */
    private final Map<Scope, int[]> callsMade = new HashMap<>();

    /** Each retried call's place among the execution's calls: {@code "2."}, {@code "2.1."}, ... */
    private final Map<TraceContext, String> places = new IdentityHashMap<>();

    /**
     * A scope of calls: one attempt of one retried call, or the execution outside any retry. Every
     * context derived within it (a narrower deadline, say) keeps both, so belongs to it too.
     */
    private record Scope(@Nullable TraceContext retried, int attempt) {
    }

    /** The context the first transaction that committed with the key ran in, or {@code null}. */
    private @Nullable TraceContext committed;

    /** A transaction of this execution carries the store's commit marker, or committed with it. */
    private boolean carriesCommitMarker;

    /** A fallback answered inside the execution: its answer is a stand-in, not the work's result. */
    private volatile boolean answeredByFallback;

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
     * The place of the next outbound call made in {@code context} among the execution's calls:
     * {@code "1"}, {@code "2"}, ... outside a retry; inside a retried call, that call's own place
     * and the call's number within the attempt ({@code "2.1"}), so a retried attempt (or a
     * re-execution after a takeover) makes the same calls at the same places and derives the same
     * downstream keys, and calls of different retried calls never share one.
     *
     * @param context the trace context the call is made in
     * @return the call's place
     */
    public synchronized String nextOutboundPlace(TraceContext context) {
        return placeOf(context.attemptsOf()) + nextIn(context);
    }

    /**
     * Records that a retried call begins in {@code current}: it takes the next place among the
     * calls of {@code current}'s scope, and its attempts number their calls from there.
     *
     * @param current the context the retried call is made in
     * @param retried the retried call's own context, whose attempts name it
     */
    public synchronized void beginRetriedCall(TraceContext current, TraceContext retried) {
        places.put(retried, placeOf(current.attemptsOf()) + nextIn(current) + ".");
    }

    private int nextIn(TraceContext context) {
        return ++callsMade.computeIfAbsent(new Scope(context.attemptsOf(), context.attempt()), scope -> new int[1])[0];
    }

    private String placeOf(@Nullable TraceContext retried) {
        // a retried call that began outside this execution (the execution runs inside its attempt)
        return retried == null ? "" : places.getOrDefault(retried, "");
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

    /**
     * Lets the transaction beginning now carry the commit marker of a store that commits the key
     * with the business writes, unless another transaction of this execution carries it (an outer
     * one) or committed with it. Kept here, with the execution, so no store holds state per
     * execution that outlives it.
     *
     * @return {@code true} when the beginning transaction is to carry it
     */
    public synchronized boolean carryCommitMarker() {
        if (carriesCommitMarker) {
            return false;
        }
        carriesCommitMarker = true;
        return true;
    }

    /** The transaction carrying the commit marker rolled back: the execution's next one carries it. */
    public synchronized void dropCommitMarker() {
        carriesCommitMarker = false;
    }

    /**
     * Records that a fallback produced an answer inside this execution (a {@code @Retry},
     * {@code @CircuitBreaker} or {@code @Timeout} fallback of the method or of a call it makes).
     */
    public void fallbackAnswered() {
        answeredByFallback = true;
    }

    /**
     * Whether a fallback produced an answer inside this execution.
     *
     * @return {@code true} once {@link #fallbackAnswered()} was called
     */
    public boolean answeredByFallback() {
        return answeredByFallback;
    }

    @Override
    public String toString() {
        return "IdempotentExecution[key=" + key + "]";
    }
}
