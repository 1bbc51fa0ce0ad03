package io.github.resiliencestarter.idempotent;

import com.alibaba.ttl.TtlRunnable;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.DurationEstimate;
import io.github.resiliencestarter.idempotent.internal.LeaseKeeper;
import io.github.resiliencestarter.idempotent.internal.Settlement;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a call at most once per key: the programmatic form of {@code @Idempotent}.
 *
 * <p>Build the call (key validated, stored key and fingerprint computed) → claim atomically → on
 * a COMPLETED record: check the fingerprint (422 on mismatch) and replay → on an IN_PROGRESS (or
 * COMMITTED) record: WAIT (poll until it completes, is released or its lease expires, bounded by
 * the deadline and the wait limit) or REJECT (409) → on a claim: execute while the lease keeper
 * extends the lease, then complete (or release on failure, so the client can try again). While
 * the work runs, the trace context carries the execution's {@link IdempotentExecution} handle
 * (key, owner token, outbound numbering) for the code inside. Completion and release are conditional on this execution's owner
 * token; a late former owner changes nothing and is reported as {@link IdempotencyOutcome#LEASE_LOST}.
 */
public final class IdempotentExecutor {

    private static final Logger log = LoggerFactory.getLogger(IdempotentExecutor.class);

    private static final Runnable NO_LISTENER = () -> { };

    private static final long FIRST_POLL_MILLIS = 10;

    private static final long MAX_POLL_MILLIS = 200;

    private final IdempotencyStore store;

    private final ResponseCodec codec;

    private final IdempotencyObserver observer;

    private final TimeSource time;

    private final LeaseKeeper leases;

    private final Settlement settlement;

    private final Map<String, DurationEstimate> durations = new ConcurrentHashMap<>();

    private IdempotentExecutor(Builder builder) {
        this.store = builder.store;
        this.codec = builder.codec;
        this.observer = builder.observer;
        this.time = builder.time;
        this.leases = time == TimeSource.SYSTEM ? LeaseKeeper.shared() : new LeaseKeeper(time);
        this.settlement = new Settlement(store, leases, time);
    }

    /**
     * A builder. Store and codec are always chosen by the caller (for example
     * {@code new Fastjson2ResponseCodec()} from {@code idempotent.support}), so the engine depends
     * on no implementation of its own interfaces.
     *
     * @param store where records live
     * @param codec how results are stored and replayed
     * @return a new builder
     */
    public static Builder builder(IdempotencyStore store, ResponseCodec codec) {
        return new Builder(store, codec);
    }

    /**
     * The store.
     *
     * @return the store
     */
    public IdempotencyStore store() {
        return store;
    }

    /**
     * Whether results declared as {@code type} can be stored and replayed by this executor's codec.
     *
     * @param type a method's generic return type
     * @return {@code true} when a replay can return the first result
     */
    public boolean canReplay(Type type) {
        return type == void.class || type == Void.class || codec.canRoundTrip(type);
    }

    /**
     * Runs {@code work} at most once for the call's key.
     *
     * @param call the key, fingerprint, return type and settings
     * @param work the work
     * @param <T> the result type
     * @return the result, executed now or replayed
     * @throws Throwable the work's failure, or an {@link IdempotencyException}
     */
    public <T> IdempotentResult<T> execute(IdempotentCall call, CheckedCallable<T> work) throws Throwable {
        return execute(call, work, NO_LISTENER);
    }

    /**
     * Runs {@code work} at most once for the call's key, and says when the answer is a replay.
     *
     * @param call the key, fingerprint, return type and settings
     * @param work the work
     * @param onReplay runs once, before a replay returns or throws the first call's outcome (a
     *     stored result, a cached failure, or the error that the first result cannot be replayed),
     *     so an adapter can mark the response as replayed in every case
     * @param <T> the result type
     * @return the result, executed now or replayed
     * @throws Throwable the work's failure, or an {@link IdempotencyException}
     */
    public <T> IdempotentResult<T> execute(IdempotentCall call, CheckedCallable<T> work, Runnable onReplay)
            throws Throwable {
        try {
            return run(call, work, onReplay);
        } catch (IdempotencyRecordCorruptedException ex) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.CORRUPTED);
            log.warn("The idempotency record of {} is unreadable; nothing was executed ({})", call.operation(),
                    ex.getMessage());
            throw ex;
        }
    }

    /**
     * The asynchronous form of {@link #execute(IdempotentCall, CheckedCallable, Runnable)}: the claim
     * is made before {@code work} runs; the completed value of its stage is stored and replayed (the
     * call's return type is the value's type); a failed completion releases the key, or is cached as
     * the settings say. A duplicate of work in progress is refused or waits as in the blocking form,
     * but waiting polls the store on scheduled tasks: no thread is parked. Store calls themselves are
     * made on the calling thread and on the thread that completes the stage.
     *
     * @param call the key, fingerprint, value type and settings
     * @param work builds the asynchronous result
     * @param onReplay runs once before a replay completes the result
     * @param <T> the value type
     * @return the result, executed now or replayed
     */
    public <T> CompletableFuture<IdempotentResult<T>> executeAsync(IdempotentCall call,
            CheckedCallable<? extends CompletionStage<T>> work, Runnable onReplay) {
        CompletableFuture<IdempotentResult<T>> result = new CompletableFuture<>();
        new AsyncExecution<>(call, work, onReplay, result).claim();
        CompletableFuture<IdempotentResult<T>> observed = result.whenComplete((value, failure) -> {
            if (failure != null && Causes.unwrapAsync(failure) instanceof IdempotencyRecordCorruptedException ex) {
                observer.onOutcome(call.operation(), IdempotencyOutcome.CORRUPTED);
                log.warn("The idempotency record of {} is unreadable; nothing was executed ({})", call.operation(),
                        ex.getMessage());
            }
        });
        // a caller that cancels what it got back cancels the execution, and so the work
        observed.whenComplete((value, failure) -> {
            if (observed.isCancelled()) {
                result.cancel(true);
            }
        });
        return observed;
    }

    /** One asynchronous idempotent call: claim, then run and record, or replay, or poll while in progress. */
    private final class AsyncExecution<T> {

        private final IdempotentCall call;

        private final CheckedCallable<? extends CompletionStage<T>> work;

        private final Runnable onReplay;

        private final CompletableFuture<IdempotentResult<T>> result;

        private final TraceContext context = TraceContextHolder.current();

        private final long lease;

        private final long waitUntil;

        private final String owner = TraceIds.generate();

        private long poll = FIRST_POLL_MILLIS;

        AsyncExecution(IdempotentCall call, CheckedCallable<? extends CompletionStage<T>> work, Runnable onReplay,
                CompletableFuture<IdempotentResult<T>> result) {
            this.call = call;
            this.work = work;
            this.onReplay = onReplay;
            this.result = result;
            Deadline deadline = context.deadline();
            this.lease = leaseMillis(call.config(), deadline);
            this.waitUntil = time.nanoTime() + waitNanos(call.config(), deadline);
        }

        void claim() {
            try {
                ClaimResult claim;
                try {
                    claim = store.claim(new Claim(call.storedKey(), call.operation(), call.fingerprint(), owner,
                            lease, call.config().ttl().toMillis()));
                } catch (IdempotencyStoreException ex) {
                    observer.onOutcome(call.operation(), IdempotencyOutcome.STORE_ERROR);
                    if (!call.config().failOpen()) {
                        throw ex;
                    }
                    log.warn("Idempotency store unavailable; running {} without idempotency (fail-open)",
                            call.operation());
                    start().whenComplete((value, failure) -> settle(failure == null
                            ? new IdempotentResult<>(value, false) : null, failure));
                    return;
                }
                if (claim.owned()) {
                    runOwned();
                } else {
                    examine(claim.existing());
                }
            } catch (Throwable ex) {
                result.completeExceptionally(ex);
            }
        }

        private void examine(IdempotencyRecord existing) throws Throwable {
            IdempotentResult<T> replayed = replayIfDone(call, existing, onReplay);
            if (replayed != null) {
                result.complete(replayed);
                return;
            }
            long leftNanos = waitUntil - time.nanoTime();
            rejectUnlessWaiting(call, existing, leftNanos);
            long delay = Math.max(1, Math.min(poll, leftNanos / 1_000_000));
            poll = Math.min(MAX_POLL_MILLIS, poll * 2);
            // a scheduled poll, not a parked thread; TTL carries the MDC and other TTL values
            CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS).execute(TtlRunnable.get(this::pollAgain));
        }

        private void pollAgain() {
            if (result.isDone()) {
                return;
            }
            try {
                IdempotencyRecord existing = store.find(call.storedKey());
                if (existing == null || existing.isLeaseExpired(time.epochMillis())) {
                    claim(); // released or abandoned: claim again (taking an expired lease over)
                } else {
                    examine(existing);
                }
            } catch (Throwable ex) {
                result.completeExceptionally(ex);
            }
        }

        private void runOwned() {
            LeaseKeeper.Lease kept = leases.keep(store, call.storedKey(), owner, lease,
                    keepMillis(call.config(), context.deadline(), true));
            long started = time.nanoTime();
            CompletableFuture<T> stage;
            try (TraceScope scope = TraceContextHolder.open(context.withIdempotentExecution(
                    new IdempotentExecution(call.storedKey(), owner)))) {
                stage = start();
            }
            // cancelling the caller's result (a timeout, a client gone) reaches the work itself
            result.whenComplete((value, failure) -> {
                if (result.isCancelled()) {
                    stage.cancel(true);
                }
            });
            stage.whenComplete((value, failure) -> {
                if (failure != null) {
                    Throwable cause = Causes.unwrapAsync(failure);
                    settlement.settleAsync(failureSettlement(call, owner, lease, cause), kept)
                            .whenComplete((settled, ignored) -> {
                                observeFailureSettlement(call, settled);
                                result.completeExceptionally(cause);
                            });
                } else {
                    recordDuration(call, started);
                    settlement.settleAsync(completionSettlement(call, owner, lease, value), kept)
                            .whenComplete((settled, ignored) -> {
                                observeCompletion(call, settled);
                                result.complete(new IdempotentResult<>(value, false));
                            });
                }
            });
        }

        private CompletableFuture<T> start() {
            try {
                return work.call().toCompletableFuture();
            } catch (Throwable ex) {
                return CompletableFuture.failedFuture(ex);
            }
        }

        private void settle(@Nullable IdempotentResult<T> value, @Nullable Throwable failure) {
            if (failure != null) {
                result.completeExceptionally(Causes.unwrapAsync(failure));
            } else {
                result.complete(value);
            }
        }
    }

    private static long leaseMillis(IdempotencyConfig config, @Nullable Deadline deadline) {
        return Math.max(1, deadline != null ? deadline.remainingMillis() + config.leaseMargin().toMillis()
                : config.lease().toMillis());
    }

    @SuppressWarnings("unchecked")
    private <T> IdempotentResult<T> run(IdempotentCall call, CheckedCallable<T> work, Runnable onReplay)
            throws Throwable {
        IdempotencyConfig config = call.config();
        TraceContext context = TraceContextHolder.current();
        Deadline deadline = context.deadline();
        long lease = leaseMillis(config, deadline);
        long waitUntil = time.nanoTime() + waitNanos(config, deadline);
        String owner = TraceIds.generate();
        Claim request = new Claim(call.storedKey(), call.operation(), call.fingerprint(), owner, lease,
                config.ttl().toMillis());
        long poll = FIRST_POLL_MILLIS;
        while (true) {
            ClaimResult claim;
            try {
                claim = store.claim(request);
            } catch (IdempotencyStoreException ex) {
                observer.onOutcome(call.operation(), IdempotencyOutcome.STORE_ERROR);
                if (config.failOpen()) {
                    log.warn("Idempotency store unavailable; running {} without idempotency (fail-open)",
                            call.operation());
                    return new IdempotentResult<>(work.call(), false);
                }
                throw ex;
            }
            if (claim.owned()) {
                return executeOwned(call, work, owner, lease, context);
            }
            IdempotencyRecord existing = claim.existing();
            while (true) {
                IdempotentResult<T> replayed = replayIfDone(call, existing, onReplay);
                if (replayed != null) {
                    return replayed;
                }
                long leftNanos = waitUntil - time.nanoTime();
                rejectUnlessWaiting(call, existing, leftNanos);
                Thread.sleep(Math.max(1, Math.min(poll, leftNanos / 1_000_000)));
                poll = Math.min(MAX_POLL_MILLIS, poll * 2);
                existing = store.find(call.storedKey());
                if (existing == null || existing.isLeaseExpired(time.epochMillis())) {
                    break; // released or abandoned: claim again (taking an expired lease over)
                }
            }
        }
    }

    /**
     * The first call's outcome when the record holds one (a replay, or its cached failure thrown);
     * {@code null} while it is still in progress. A reused key with another payload is refused.
     */
    @SuppressWarnings("unchecked")
    private <T> @Nullable IdempotentResult<T> replayIfDone(IdempotentCall call, IdempotencyRecord existing,
            Runnable onReplay) throws Throwable {
        if (!call.fingerprint().equals(existing.fingerprint())) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.KEY_REUSED);
            throw new IdempotencyKeyReusedException(call.operation());
        }
        if (existing.status() != IdempotencyStatus.COMPLETED && (existing.status() != IdempotencyStatus.COMMITTED
                || existing.leaseExpiresAt() > time.epochMillis())) {
            return null;
        }
        // a committed response still missing after the lease is lost for good: replay says so
        T replayed;
        try {
            replayed = (T) ResponseReplay.replay(existing, call, codec);
        } catch (IdempotencyRecordCorruptedException ex) {
            throw ex;
        } catch (Throwable firstOutcome) {
            // a cached failure, or the first result cannot be replayed: still a replay
            onReplay.run();
            observer.onOutcome(call.operation(), IdempotencyOutcome.REPLAYED);
            throw firstOutcome;
        }
        onReplay.run();
        observer.onOutcome(call.operation(), IdempotencyOutcome.REPLAYED);
        return new IdempotentResult<>(replayed, true);
    }

    /** A duplicate of work in progress: 409 now (REJECT, or no time left to wait), else it may wait. */
    private void rejectUnlessWaiting(IdempotentCall call, IdempotencyRecord existing, long leftNanos) {
        if (call.config().onInProgress() == InProgressStrategy.REJECT || leftNanos <= 0) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.IN_PROGRESS);
            throw new IdempotencyInProgressException(call.operation(), retryAfterSeconds(call, existing));
        }
    }

    private <T> IdempotentResult<T> executeOwned(IdempotentCall call, CheckedCallable<T> work, String owner, long lease,
            TraceContext context) throws Throwable {
        T value;
        LeaseKeeper.Lease kept = leases.keep(store, call.storedKey(), owner, lease,
                keepMillis(call.config(), context.deadline(), false));
        long started = time.nanoTime();
        try (TraceScope scope = TraceContextHolder.open(context.withIdempotentExecution(
                new IdempotentExecution(call.storedKey(), owner)))) {
            value = work.call();
            recordDuration(call, started);
        } catch (Throwable failure) {
            observeFailureSettlement(call, settlement.settle(failureSettlement(call, owner, lease, failure), kept));
            throw failure;
        }
        observeCompletion(call, settlement.settle(completionSettlement(call, owner, lease, value), kept));
        return new IdempotentResult<>(value, false);
    }

    /**
     * How long from now the lease may be kept while the work runs: to the deadline plus the margin,
     * so hung work that ignores interrupts does not hold its key longer; without a deadline, as long
     * as a blocking call's thread runs, and at most the keep limit for an asynchronous call, whose
     * result may never come.
     */
    private static long keepMillis(IdempotencyConfig config, @Nullable Deadline deadline, boolean async) {
        if (deadline != null) {
            return deadline.remainingMillis() + config.leaseMargin().toMillis();
        }
        return async ? config.keepLimit().toMillis() : Long.MAX_VALUE;
    }

    /** The completion that stores the owner's result, so duplicates replay it. */
    private Settlement.Command completionSettlement(IdempotentCall call, String owner, long lease,
            @Nullable Object value) {
        StoredResponse response = ResponseReplay.encode(value, call, codec);
        if (StoredResponse.UNREPLAYABLE.equals(response.type())) {
            log.warn("The result of {} could not be encoded for replay; the key is completed without it, so "
                    + "duplicates get an error and nothing runs twice", call.operation());
        }
        IdempotencyConfig config = call.config();
        return new Settlement.Command(call.operation(), call.storedKey(), owner,
                new Completion(call.storedKey(), owner, response, config.ttl().toMillis(), call.fingerprint(),
                        call.operation()), lease,
                config.settleLimit().toMillis());
    }

    /** After a failure: the failure kept for replays when cacheable, else the claim released. */
    private static Settlement.Command failureSettlement(IdempotentCall call, String owner, long lease,
            Throwable failure) {
        IdempotencyConfig config = call.config();
        Completion cached = isCacheable(config, failure) ? new Completion(call.storedKey(), owner,
                StoredResponse.failure(failure), config.ttl().toMillis(), call.fingerprint(), call.operation()) : null;
        return new Settlement.Command(call.operation(), call.storedKey(), owner, cached, lease,
                config.settleLimit().toMillis());
    }

    private void observeCompletion(IdempotentCall call, Settlement.@Nullable Result settled) {
        if (settled == Settlement.Result.LOST) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.LEASE_LOST);
            log.warn("{} finished after its idempotency lease was taken over; its completion was not recorded",
                    call.operation());
        } else if (settled == Settlement.Result.SETTLED) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.EXECUTED);
        } else {
            // the work is done and its effects stand; the settlement goes on while the claim is kept
            observer.onOutcome(call.operation(), IdempotencyOutcome.STORE_ERROR);
        }
    }

    private void observeFailureSettlement(IdempotentCall call, Settlement.@Nullable Result settled) {
        if (settled == Settlement.Result.LOST) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.LEASE_LOST);
        } else if (settled != Settlement.Result.SETTLED) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.STORE_ERROR);
        }
    }

    private static boolean isCacheable(IdempotencyConfig config, Throwable failure) {
        for (Class<? extends Throwable> type : config.cacheableExceptions()) {
            if (type.isInstance(failure)) {
                return true;
            }
        }
        return false;
    }

    private static long waitNanos(IdempotencyConfig config, @Nullable Deadline deadline) {
        long wait = config.waitTimeout().toNanos();
        return deadline != null ? Math.min(wait, Math.max(0, deadline.remainingNanos())) : wait;
    }

    private void recordDuration(IdempotentCall call, long started) {
        durations.computeIfAbsent(call.operation(), operation -> DurationEstimate.median())
                .record(time.nanoTime() - started);
    }

    /**
     * When a duplicate of work in progress should come back: the operation's median duration over
     * recent executions, never past the first call's lease, at least one second and at most a
     * minute; the lease alone when the operation has no history here yet.
     */
    private long retryAfterSeconds(IdempotentCall call, IdempotencyRecord existing) {
        long leaseLeftMillis = existing.leaseExpiresAt() - time.epochMillis();
        DurationEstimate estimate = durations.get(call.operation());
        long typical = estimate == null ? -1 : estimate.estimateNanos();
        long millis = typical < 0 ? leaseLeftMillis : Math.min(typical / 1_000_000, leaseLeftMillis);
        long seconds = (Math.max(0, millis) + 999) / 1000;
        return Math.max(1, Math.min(seconds, 60));
    }

    /** Builds an {@link IdempotentExecutor}. */
    public static final class Builder {

        private final IdempotencyStore store;

        private final ResponseCodec codec;

        private IdempotencyObserver observer = IdempotencyObserver.NOOP;

        private TimeSource time = TimeSource.SYSTEM;

        private Builder(IdempotencyStore store, ResponseCodec codec) {
            this.store = Objects.requireNonNull(store, "store");
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        /**
         * @param value who hears outcomes
         * @return this builder
         */
        public Builder observer(IdempotencyObserver value) {
            this.observer = Objects.requireNonNull(value, "observer");
            return this;
        }

        /**
         * @param value the time source for waits, lease keeping and lease checks; the system's by
         *     default
         * @return this builder
         */
        public Builder timeSource(TimeSource value) {
            this.time = Objects.requireNonNull(value, "timeSource");
            return this;
        }

        /**
         * Builds the executor.
         *
         * @return the executor
         */
        public IdempotentExecutor build() {
            return new IdempotentExecutor(this);
        }
    }
}
