package io.github.resiliencestarter.idempotent.internal;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.InterruptMask;
import io.github.resiliencestarter.core.Scheduler;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.StoredResponse;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last phase of an owned claim, shared by the blocking and the asynchronous executions: the
 * completion (the response duplicates replay) or the release (the client may try again).
 *
 * <p>Settlement is durable. Every attempt runs with the starter's interrupts held back
 * ({@link InterruptMask}), so a timeout landing just as the work returns cannot break the store
 * command; it is never made on the caller's deadline, and an asynchronous one never on the thread
 * that completed the work (an event loop, the common pool) but on the settlement threads. When the
 * store fails, the attempt is repeated with back-off on those threads while the claim's lease is
 * kept alive, until it succeeds, the claim turns out to be lost, or the settle limit passes; the
 * caller is answered after the first attempt. A completion that still cannot be written is then
 * tried as an "executed, outcome unknown" record, which duplicates are refused by instead of
 * executing again, for as long as the node lives: the work has run, so its key stays held and its
 * lease kept until the store has recorded that. A release gives up at the settle limit (the lease
 * frees the key).
 *
 * <p>It also knows which keys its node holds: from the start of an owned execution's work until
 * its settlement has ended ({@link #hold}, {@link #isHeld}). The executor makes no claim of a held
 * key, so a node never takes its own lapsed lease over while its first result is on its way.
 */
public final class Settlement {

    /** The first pause before a failed settlement is tried again; it doubles up to {@link #MAX_RETRY_MILLIS}. */
    public static final long FIRST_RETRY_MILLIS = 50;

    /** The longest pause between two tries. */
    public static final long MAX_RETRY_MILLIS = 2_000;

    private static final Logger log = LoggerFactory.getLogger(Settlement.class);

    private static final Scheduler SHARED_THREADS = Scheduler.on(settleThreads());

    private final IdempotencyStore store;

    private final LeaseKeeper leases;

    private final Scheduler threads;

    /**
     * The keys this node holds, from the run of their work until their settlement has ended: a
     * running execution's holder, then, if its first attempt failed, its pending settlement.
     */
    private final ConcurrentHashMap<String, Object> held = new ConcurrentHashMap<>();

    /** What the first attempt found. */
    public enum Result {

        /** Written. */
        SETTLED,

        /** The claim belongs to another execution now: nothing was written, nothing will be. */
        LOST,

        /** The store failed; the settlement goes on in the background while the lease is kept. */
        DEFERRED
    }

    /**
     * One settlement to make.
     *
     * @param operation the operation, for log lines
     * @param key the stored key
     * @param owner the owner token
     * @param completion what to complete the record with, or {@code null} to release it
     * @param leaseMillis the claim's lease, kept while the settlement is retried
     * @param limitMillis how long a failing settlement is retried as it is (the settle limit): then a
     *     release gives up, and a completion is tried as "executed, outcome unknown" until written
     */
    public record Command(String operation, String key, String owner, @Nullable Completion completion,
            long leaseMillis, long limitMillis) {

        /** Checks the fields. */
        public Command {
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(owner, "owner");
        }

        boolean apply(IdempotencyStore store) {
            return completion != null ? store.complete(completion) : store.release(key, owner);
        }

        /** The completion that records only that the work ran, for when the full one cannot be written. */
        @Nullable Command outcomeUnknown() {
            if (completion == null || StoredResponse.OUTCOME_UNKNOWN.equals(completion.response().type())) {
                return null;
            }
            Completion unknown = new Completion(key, owner, StoredResponse.outcomeUnknown(), completion.ttlMillis(),
                    completion.fingerprint(), completion.name());
            return new Command(operation, key, owner, unknown, leaseMillis, limitMillis);
        }

        /**
         * How long from its start the settlement may take, its key held and its lease kept meanwhile:
         * a release, the settle limit; a completion, until it is written ({@link Long#MAX_VALUE}).
         */
        long heldMillis() {
            return completion != null ? Long.MAX_VALUE : limitMillis;
        }

        String what() {
            return completion != null ? "completion" : "release";
        }
    }

    /**
     * Creates the settlement of an executor.
     *
     * @param store the store
     * @param leases the keeper that keeps a claim's lease while its settlement is retried
     */
    public Settlement(IdempotencyStore store, LeaseKeeper leases) {
        this(store, leases, SHARED_THREADS);
    }

    /**
     * Creates the settlement of an executor whose background work runs on {@code threads}.
     *
     * @param store the store
     * @param leases the keeper that keeps a claim's lease while its settlement is retried
     * @param threads where settlements and their retries run, and the clock of their limit
     */
    public Settlement(IdempotencyStore store, LeaseKeeper leases, Scheduler threads) {
        this.store = store;
        this.leases = leases;
        this.threads = threads;
    }

    /**
     * Settles on the calling thread, which a blocking execution owns: one attempt here; retries,
     * if any, in the background.
     *
     * @param command what to write
     * @param lease the claim's kept lease; closed once the settlement has ended
     * @return what the first attempt found
     */
    public Result settle(Command command, LeaseKeeper.Lease lease) {
        return settle(command, lease, null);
    }

    /**
     * Marks {@code key} as held by this node while its work runs: a claim of the key on this node
     * is answered "in progress" until the settlement of that work has ended. Work that has not
     * returned by the end of {@code keepForMillis} (hung, ignoring interrupts) holds it no longer,
     * as its lease is no longer kept either.
     *
     * @param key the stored key
     * @param keepForMillis how long from now the work may hold the key, or {@link Long#MAX_VALUE}
     * @return the holder, to hand to {@link #settle(Command, LeaseKeeper.Lease, Object)}
     */
    public Object hold(String key, long keepForMillis) {
        Holder holder = new Holder(keepForMillis == Long.MAX_VALUE ? Long.MAX_VALUE
                : threads.nanoTime() + TimeUnit.MILLISECONDS.toNanos(keepForMillis));
        held.put(key, holder);
        return holder;
    }

    /** A running execution's hold on its key: until its bound, or until its settlement ends once it has begun. */
    private static final class Holder {

        private final long untilNanos;

        private volatile boolean settling;

        Holder(long untilNanos) {
            this.untilNanos = untilNanos;
        }

        boolean holds(long now) {
            return settling || untilNanos == Long.MAX_VALUE || now - untilNanos < 0;
        }
    }

    /**
     * Settles the work of a held key on the calling thread, as {@link #settle(Command, LeaseKeeper.Lease)}
     * does; the key stays held until the settlement has ended.
     *
     * @param command what to write
     * @param lease the claim's kept lease; closed once the settlement has ended
     * @param holder what {@link #hold(String, long)} answered, or {@code null} when the work did not run
     * @return what the first attempt found
     */
    public Result settle(Command command, LeaseKeeper.Lease lease, @Nullable Object holder) {
        settling(holder);
        // the work has returned: its lease is kept for the settlement now, not to the deadline any more
        // (an extension sized to the deadline would let the lease lapse under a slow first attempt)
        lease.keepFor(command.heldMillis());
        Result first = null;
        try {
            first = attempt(command);
        } finally {
            // a deferred settlement takes the holder's place below, so the key is never free between
            if (holder != null && first != Result.DEFERRED) {
                held.remove(command.key(), holder);
            }
        }
        if (first == Result.DEFERRED) {
            // the limits are on the clock the waits between tries are measured on
            long now = threads.nanoTime();
            LeaseKeeper.Lease kept = lease.isKept() ? lease
                    : leases.keepExtendingNow(store, command.key(), command.owner(), command.leaseMillis(),
                            command.heldMillis());
            PendingSettlement retried = new PendingSettlement(command, kept,
                    now + TimeUnit.MILLISECONDS.toNanos(command.limitMillis()));
            held.put(command.key(), retried);
            threads.schedule(() -> tryAgain(retried, FIRST_RETRY_MILLIS), FIRST_RETRY_MILLIS);
        } else {
            lease.close();
        }
        return first;
    }

    /**
     * Whether this node holds {@code key}: its work runs here, or its settlement is still being
     * retried here. Either way its result is on its way, so this node must not claim the key again.
     *
     * @param key the stored key
     * @return {@code true} while held
     */
    public boolean isHeld(String key) {
        Object holder = held.get(key);
        return holder instanceof Holder running ? running.holds(threads.nanoTime()) : holder != null;
    }

    /**
     * Tries the pending settlement of {@code key} now rather than at its next turn, as a duplicate
     * waits for it; nothing when none is pending or a try is under way.
     *
     * @param key the stored key
     */
    public void hurry(String key) {
        if (held.get(key) instanceof PendingSettlement retried) {
            threads.execute(() -> tryAgain(retried, -1));
        }
    }

    /**
     * Settles on the settlement threads, for an asynchronous execution: the thread that completed
     * the work may be an event loop.
     *
     * @param command what to write
     * @param lease the claim's kept lease; closed once the settlement has ended
     * @return what the first attempt found
     */
    public CompletableFuture<Result> settleAsync(Command command, LeaseKeeper.Lease lease) {
        return settleAsync(command, lease, null);
    }

    /**
     * Settles the work of a held key on the settlement threads, as
     * {@link #settleAsync(Command, LeaseKeeper.Lease)} does.
     *
     * @param command what to write
     * @param lease the claim's kept lease; closed once the settlement has ended
     * @param holder what {@link #hold(String, long)} answered
     * @return what the first attempt found
     */
    public CompletableFuture<Result> settleAsync(Command command, LeaseKeeper.Lease lease, @Nullable Object holder) {
        // the work has returned: the key is held until its settlement ends, however long that takes
        settling(holder);
        return CompletableFuture.supplyAsync(() -> settle(command, lease, holder), threads::execute);
    }

    private Result attempt(Command command) {
        Result result = tryOnce(command);
        if (result == Result.DEFERRED) {
            log.warn("Could not record the {} of {}; trying again while its claim is kept", command.what(),
                    command.operation());
        }
        return result;
    }

    private Result tryOnce(Command command) {
        // not bounded by the caller's deadline: a store client bounded by it must not refuse a settlement
        try (TraceScope unbounded = TraceContextHolder.open(TraceContextHolder.current().withoutDeadline())) {
            return InterruptMask.uninterruptibly(() -> command.apply(store)) ? Result.SETTLED : Result.LOST;
        } catch (IdempotencyStoreException ex) {
            log.debug("The {} of {} failed", command.what(), command.operation(), ex);
            return Result.DEFERRED;
        } catch (RuntimeException ex) {
            // not an outage the store reported, but the work has run all the same: keep trying
            log.warn("The {} of {} failed unexpectedly", command.what(), command.operation(), ex);
            return Result.DEFERRED;
        }
    }

    /**
     * One more try of a pending settlement: at its turn ({@code delayMillis} is the wait that led to
     * it, and the next is twice as long), or hurried ({@code delayMillis} negative), when a try made
     * at its turn follows as before.
     */
    private void tryAgain(PendingSettlement retried, long delayMillis) {
        boolean atItsTurn = delayMillis >= 0;
        if (retried.isDone()) {
            return;
        }
        if (!retried.begin()) {
            if (atItsTurn) {
                // a hurried try is under way: this turn comes again
                threads.schedule(() -> tryAgain(retried, delayMillis), delayMillis);
            }
            return;
        }
        Command command = retried.command();
        Result result;
        int made;
        try {
            result = tryOnce(command);
        } finally {
            made = retried.end();
        }
        if (result != Result.DEFERRED) {
            finish(retried);
            log.info("The {} of {} ended after {} tries{}", command.what(), command.operation(), made,
                    result == Result.LOST ? ": the record was no longer this execution's (an earlier try whose"
                            + " answer was lost wrote it, or the claim was taken over)" : "");
            return;
        }
        if (!atItsTurn) {
            return;
        }
        long next = Math.min(MAX_RETRY_MILLIS, delayMillis * 2);
        long left = retried.millisLeft(threads.nanoTime());
        if (left > 0) {
            // the last try falls on the limit itself, not a back-off before it
            threads.schedule(() -> tryAgain(retried, next), Math.min(next, left));
            return;
        }
        if (retried.triedUntilWritten()) {
            // the work ran: its key must not be claimable again while this node lives to record that
            log.error("Could not record the completion of {} within {} ms ({} tries); recording that it executed "
                    + "with an unknown outcome instead, tried until the store takes it, its key kept meanwhile",
                    command.operation(), command.limitMillis(), made);
            threads.schedule(() -> tryAgain(retried, next), next);
            return;
        }
        if (retried.begin()) {
            try {
                giveUp(command, retried.lease(), made);
            } finally {
                retried.end();
                finish(retried);
            }
        }
    }

    private static void settling(@Nullable Object holder) {
        if (holder instanceof Holder running) {
            running.settling = true;
        }
    }

    private void finish(PendingSettlement retried) {
        retried.markDone();
        held.remove(retried.command().key(), retried);
        retried.lease().close();
    }

    /** A release not written by the settle limit: the claim's lease, no longer kept, frees the key. */
    private void giveUp(Command command, LeaseKeeper.Lease lease, int tries) {
        lease.close();
        log.warn("Could not release the claim of {} within {} ms ({} tries); it frees itself when its lease ends",
                command.operation(), command.limitMillis(), tries);
    }

    private static Executor settleThreads() {
        AtomicInteger created = new AtomicInteger();
        // few threads suffice: a settlement is one store command; more only help while a store stalls
        ThreadPoolExecutor pool = new ThreadPoolExecutor(8, 8, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                runnable -> {
                    Thread thread = new Thread(runnable, "resilience-idempotency-settle-" + created.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
