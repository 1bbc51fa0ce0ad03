package io.github.resiliencestarter.idempotent.internal;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.InterruptMask;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.StoredResponse;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
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
 * caller is answered after the first attempt. A completion that still cannot be written is tried
 * once more as an "executed, outcome unknown" record, which duplicates are refused by instead of
 * executing again.
 */
public final class Settlement {

    /** The first pause before a failed settlement is tried again; it doubles up to {@link #MAX_RETRY_MILLIS}. */
    public static final long FIRST_RETRY_MILLIS = 50;

    /** The longest pause between two tries. */
    public static final long MAX_RETRY_MILLIS = 2_000;

    private static final Logger log = LoggerFactory.getLogger(Settlement.class);

    private static final Executor SHARED_THREADS = settleThreads();

    private final IdempotencyStore store;

    private final LeaseKeeper leases;

    private final Executor threads;

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
     * @param limitMillis how long a failing settlement is retried
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
        this.store = store;
        this.leases = leases;
        this.threads = SHARED_THREADS;
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
        Result first = attempt(command);
        if (first == Result.DEFERRED) {
            // the waits between tries are real, so is the limit (not an injected test clock)
            long giveUpAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(command.limitMillis());
            LeaseKeeper.Lease kept = lease.isKept() ? lease.keepFor(command.limitMillis())
                    : leases.keep(store, command.key(), command.owner(), command.leaseMillis(), command.limitMillis());
            retryLater(command, kept, giveUpAt, FIRST_RETRY_MILLIS, new AtomicInteger(1));
        } else {
            lease.close();
        }
        return first;
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
        return CompletableFuture.supplyAsync(() -> settle(command, lease), threads);
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

    private void retryLater(Command command, LeaseKeeper.Lease lease, long giveUpAt, long delayMillis,
            AtomicInteger tries) {
        Executor later = CompletableFuture.delayedExecutor(delayMillis, TimeUnit.MILLISECONDS, threads);
        later.execute(() -> {
            Result result = tryOnce(command);
            int made = tries.incrementAndGet();
            if (result != Result.DEFERRED) {
                lease.close();
                log.info("The {} of {} ended after {} tries{}", command.what(), command.operation(), made,
                        result == Result.LOST ? ": the record was no longer this execution's (an earlier try whose"
                                + " answer was lost wrote it, or the claim was taken over)" : "");
                return;
            }
            long next = Math.min(MAX_RETRY_MILLIS, delayMillis * 2);
            if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(next) - giveUpAt < 0) {
                retryLater(command, lease, giveUpAt, next, tries);
                return;
            }
            giveUp(command, lease, made);
        });
    }

    private void giveUp(Command command, LeaseKeeper.Lease lease, int tries) {
        Command unknown = command.outcomeUnknown();
        try {
            if (unknown != null && InterruptMask.uninterruptibly(() -> unknown.apply(store))) {
                log.error("Could not record the completion of {} in {} tries; recorded that it executed with an "
                        + "unknown outcome: duplicates are refused, never executed again", command.operation(), tries);
                return;
            }
        } catch (RuntimeException ex) {
            log.debug("The outcome-unknown record of {} could not be written either", command.operation(), ex);
        } finally {
            lease.close();
        }
        if (command.completion() != null) {
            log.error("Could not record the completion of {} within {} ms ({} tries); once its lease ends a "
                    + "duplicate may execute it again", command.operation(), command.limitMillis(), tries);
        } else {
            log.warn("Could not release the claim of {} within {} ms; it frees itself when its lease ends",
                    command.operation(), command.limitMillis());
        }
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
