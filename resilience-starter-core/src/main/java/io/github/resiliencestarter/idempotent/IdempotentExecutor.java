package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.core.Results;
import io.github.resiliencestarter.core.Scheduler;
import io.github.resiliencestarter.core.Stages;
import io.github.resiliencestarter.idempotent.internal.ClaimStep;
import io.github.resiliencestarter.idempotent.internal.LeaseKeeper;
import io.github.resiliencestarter.idempotent.internal.RetryAfterEstimate;
import io.github.resiliencestarter.idempotent.internal.Settlement;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import io.github.resiliencestarter.rollout.FirstObservations;
import io.github.resiliencestarter.rollout.Rollouts;
import java.lang.reflect.Type;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
 *
 * <p>One decision, two drivers: {@code ClaimProgress} decides after each store answer (run,
 * replay, refuse, wait, claim again); {@link BlockingIdempotentCall} and {@link AsyncIdempotentCall}
 * carry it out, and both settle through the one {@code Settlement}. This class holds what they
 * share.
 */
public final class IdempotentExecutor {

    private static final Logger log = LoggerFactory.getLogger(IdempotentExecutor.class);

    private static final Runnable NO_LISTENER = () -> { };

    final IdempotencyStore store;

    private final ResponseCodec codec;

    final IdempotencyObserver observer;

    private final ClientErrorReplay clientErrors;

    private final PayloadProtection protection;

    final TimeSource time;

    final LeaseKeeper leases;

    final Settlement settlement;

    /** Where a waiting duplicate waits: its polls (asynchronous) or its sleeps (blocking). */
    final Scheduler waits;

    /** Carries the caller's thread-bound state to an asynchronous wait's polls, where work may start. */
    final ContextPropagator propagator;

    private final RetryAfterEstimate retryAfter;

    /** Enforced or only observed, per operation name; decided per call on its stored key. */
    private final Rollouts rollouts;

    /** Operations and outcomes already logged in observe mode: one line per decision kind. */
    private final FirstObservations observedLogged = new FirstObservations();

    private IdempotentExecutor(Builder builder) {
        this.store = builder.store;
        this.codec = builder.codec;
        this.observer = builder.observer;
        this.clientErrors = builder.clientErrors;
        this.protection = builder.protection;
        this.time = builder.time;
        Scheduler scheduler = builder.scheduler;
        if (scheduler == null) {
            this.leases = time == TimeSource.SYSTEM ? LeaseKeeper.shared() : new LeaseKeeper(time);
            this.settlement = new Settlement(store, leases);
            this.waits = Scheduler.SYSTEM;
        } else {
            this.leases = new LeaseKeeper(time, scheduler);
            this.settlement = new Settlement(store, leases, scheduler);
            this.waits = scheduler;
        }
        this.retryAfter = new RetryAfterEstimate(time);
        this.rollouts = builder.rollouts;
        this.propagator = builder.propagator;
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
     * Counts a call that ran without idempotency because it carried no key and its method does not
     * require one.
     *
     * @param operation the operation's name
     */
    public void countUnprotected(String operation) {
        observer.onOutcome(operation, IdempotencyOutcome.UNPROTECTED);
    }

    /**
     * How an operation's duplicate handling is rolled out now: enforced or observed, for which
     * share of keys.
     *
     * @param operation the operation's name
     * @return the policy in force
     */
    public RolloutPolicy rollout(String operation) {
        return rollouts.policy(operation);
    }

    /**
     * Whether this executor's codec can leave named fields out of stored responses.
     *
     * @return {@code true} when it can
     */
    public boolean canExcludeFields() {
        return codec.canExcludeFields();
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
    public <T extends @Nullable Object> IdempotentResult<T> execute(IdempotentCall call, CheckedCallable<T> work)
            throws Throwable {
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
    public <T extends @Nullable Object> IdempotentResult<T> execute(IdempotentCall call, CheckedCallable<T> work,
            Runnable onReplay) throws Throwable {
        try {
            return BlockingIdempotentCall.run(this, call, work, onReplay);
        } catch (IdempotencyRecordCorruptedException ex) {
            corrupted(call, ex);
            throw ex;
        }
    }

    /**
     * The asynchronous form of {@link #execute(IdempotentCall, CheckedCallable, Runnable)}: the claim
     * is made before {@code work} runs; the completed value of its stage is stored and replayed (the
     * call's return type is the value's type); a failed completion releases the key, or is cached as
     * the settings say. A duplicate of work in progress is refused or waits as in the blocking form,
     * but waiting polls the store on scheduled tasks: no thread is parked. The claim is made on the
     * calling thread; the completion or release on the settlement threads, never on the thread that
     * completed the stage. Cancelling the returned future (a timeout, a client gone) ends a
     * duplicate's wait, but does not cancel owned work: a cancelled future says nothing of the work
     * behind it, so its key stays claimed (its lease kept, up to the keep limit) until the work's
     * own stage completes, and its outcome is settled as if the caller had waited for it.
     *
     * @param call the key, fingerprint, value type and settings
     * @param work builds the asynchronous result
     * @param onReplay runs once before a replay completes the result
     * @param <T> the value type
     * @return the result, executed now or replayed
     */
    public <T> CompletableFuture<IdempotentResult<T>> executeAsync(IdempotentCall call,
            CheckedCallable<? extends CompletionStage<T>> work, Runnable onReplay) {
        CompletableFuture<IdempotentResult<T>> result = AsyncIdempotentCall.start(this, call, work, onReplay);
        CompletableFuture<IdempotentResult<T>> observed = result.whenComplete((value, failure) -> {
            if (failure != null && Causes.unwrapAsync(failure) instanceof IdempotencyRecordCorruptedException ex) {
                corrupted(call, ex);
            }
        });
        // a caller that cancels what it got back cancels the execution (owned work goes on, still claimed)
        return Stages.cancelling(observed, result);
    }

    private void corrupted(IdempotentCall call, IdempotencyRecordCorruptedException ex) {
        observer.onOutcome(call.operation(), IdempotencyOutcome.CORRUPTED);
        log.warn("The idempotency record of {} is unreadable; nothing was executed ({})", call.operation(),
                ex.getMessage());
    }

    /**
     * Claims for {@code request}, unless this node holds the key (its work runs here, or its
     * settlement is still being retried here): taking its own lapsed lease over would run the work
     * again while the first result is on its way. Then no claim is made; a pending settlement is
     * tried at once, and the key's record is
     * answered as the store has it, or as in progress, so the duplicate waits or is refused as for
     * any execution in progress (and replays once the settlement lands).
     */
    ClaimResult claim(Claim request) {
        if (!settlement.isHeld(request.key())) {
            return store.claim(request);
        }
        settlement.hurry(request.key());
        IdempotencyRecord found = store.find(request.key());
        if (found != null) {
            return ClaimResult.exists(found);
        }
        long now = time.epochMillis();
        return ClaimResult.exists(new IdempotencyRecord(request.key(), request.name(), request.fingerprint(),
                IdempotencyStatus.IN_PROGRESS, "", now, now + request.ttlMillis(), null, now));
    }

    /** The claim request of one execution: its lease sized to the deadline plus the margin, or the lease. */
    static Claim claimOf(IdempotentCall call, String owner, long lease) {
        return new Claim(call.storedKey(), call.operation(), call.fingerprint(), owner, lease,
                call.config().ttl().toMillis());
    }

    static long leaseMillis(IdempotencyConfig config, @Nullable Deadline deadline) {
        return Math.max(1, deadline != null ? deadline.remainingMillis() + config.leaseMargin().toMillis()
                : config.lease().toMillis());
    }

    /**
     * How long from now the lease may be kept while the work runs: the keep limit, blocking or
     * asynchronous, whatever the deadline. Work that outlives its deadline (it ignores the
     * interrupt; a cancelled future does not stop what is behind it) still commits its effects,
     * so its key stays claimed and its outcome is recorded when it comes; the limit bounds work
     * that never returns.
     */
    static long keepMillis(IdempotencyConfig config) {
        return config.keepLimit().toMillis();
    }

    /** The store could not be reached for the claim: counted, and the call runs unprotected only when failing open. */
    boolean failsOpen(IdempotentCall call) {
        observer.onOutcome(call.operation(), IdempotencyOutcome.STORE_ERROR);
        if (!call.config().failOpen()) {
            return false;
        }
        log.warn("Idempotency store unavailable; running {} without idempotency (fail-open)", call.operation());
        return true;
    }

    /**
     * Replays a done record: its result, or its cached failure (or the error that the first result
     * cannot be replayed) thrown, as a replay in every case.
     */
    @SuppressWarnings("unchecked")
    <T extends @Nullable Object> IdempotentResult<T> replay(IdempotentCall call, @Nullable IdempotencyRecord existing,
            Runnable onReplay) throws Throwable {
        T replayed;
        try {
            replayed = Results.returned((T) ResponseReplay.replay(opened(found(existing), call), call, codec,
                    clientErrors));
        } catch (IdempotencyRecordCorruptedException ex) {
            throw ex;
        } catch (Throwable firstOutcome) {
            onReplay.run();
            observer.onOutcome(call.operation(), IdempotencyOutcome.REPLAYED);
            throw firstOutcome;
        }
        onReplay.run();
        observer.onOutcome(call.operation(), IdempotencyOutcome.REPLAYED);
        return new IdempotentResult<>(replayed, true);
    }

    /**
     * For a duplicate's step (replay, wait, refuse): whether its operation only observes this key,
     * in which case what it would have done is counted and logged and the call runs as it would
     * without the annotation, claiming nothing. The first call of a key claims and records in
     * either mode, so the decision is only needed here, off the path of a first execution.
     *
     * @param call the call
     * @param step what the claim decision said
     * @return {@code true} to run the work unowned instead of carrying out {@code step}
     */
    boolean observesInstead(IdempotentCall call, ClaimStep step) {
        IdempotencyOutcome would = switch (step) {
            case REPLAY -> IdempotencyOutcome.WOULD_REPLAY;
            case WAIT -> IdempotencyOutcome.WOULD_WAIT;
            case REJECT -> IdempotencyOutcome.WOULD_REJECT;
            case KEY_REUSED -> IdempotencyOutcome.WOULD_422;
            case RUN, CONFIRM, CLAIM_AGAIN -> null;
        };
        if (would == null || rollouts.policy(call.operation()).enforces(call.storedKey())) {
            return false;
        }
        observer.onOutcome(call.operation(), would);
        if (observedLogged.first(call.operation(), would.tag())) {
            log.info("@Idempotent {} observes and does not enforce: a duplicate it would have answered with {} "
                    + "ran instead. Later such calls are counted as resilience.idempotent.calls{{outcome={}}} without "
                    + "this line (docs/rollout.md).", call.operation(), describe(would), would.tag());
        }
        return true;
    }

    private static String describe(IdempotencyOutcome would) {
        return switch (would) {
            case WOULD_REPLAY -> "the first result (a replay)";
            case WOULD_WAIT -> "a wait for the first call's result";
            case WOULD_REJECT -> "409, as the first call was still running";
            default -> "422, as the key came with another payload";
        };
    }

    /** The failure a duplicate gets for {@link ClaimStep#KEY_REUSED} or {@link ClaimStep#REJECT}. */
    IdempotencyException refusal(IdempotentCall call, ClaimStep step, @Nullable IdempotencyRecord existing) {
        if (step == ClaimStep.KEY_REUSED) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.KEY_REUSED);
            return new IdempotencyKeyReusedException(call.operation());
        }
        observer.onOutcome(call.operation(), IdempotencyOutcome.IN_PROGRESS);
        return new IdempotencyInProgressException(call.operation(),
                retryAfter.retryAfterSeconds(call.operation(), found(existing)));
    }

    /**
     * Whether a claim was answered after the deadline: nobody waits for the work any more, so it
     * does not run; the key is released ({@link #releaseOf}) and the call fails as out of budget.
     */
    static boolean answeredTooLate(@Nullable Deadline deadline) {
        return deadline != null && deadline.isExpired();
    }

    /** The release of a claim whose work did not run. */
    static Settlement.Command releaseOf(IdempotentCall call, String owner, long lease) {
        return settlement(call, owner, null, lease);
    }

    void recordDuration(IdempotentCall call, long started) {
        retryAfter.record(call.operation(), time.nanoTime() - started);
    }

    /**
     * The completion that stores the owner's result, so duplicates replay it; unless its status is
     * one {@link KeptAnswers} does not keep (a returned 429 or 503), or a fallback produced it and
     * the call does not store fallback answers: then the key is released (or, when an attempt's
     * writes committed with the key, completed as "executed, outcome unknown"), so the client's
     * retry runs the method for real instead of replaying a refusal or a stand-in.
     */
    Settlement.Command completionSettlement(IdempotentCall call, IdempotentExecution execution, long lease,
            @Nullable Object value) {
        String owner = execution.ownerToken();
        IdempotencyConfig config = call.config();
        int status = clientErrors.answerStatus(value);
        boolean notKept = status != 0 && !KeptAnswers.keeps(status);
        if (notKept || execution.answeredByFallback() && config.onFallbackAnswer() == FallbackAnswerHandling.RELEASE) {
            Completion unknown = execution.committedAttempt() == IdempotentExecution.NONE_COMMITTED ? null
                    : new Completion(call.storedKey(), owner, sealed(StoredResponse.outcomeUnknown(), call),
                            config.ttl().toMillis(), call.fingerprint(), call.operation());
            return settlement(call, owner, unknown, lease);
        }
        StoredResponse response = ResponseReplay.encode(value, call, codec);
        if (StoredResponse.UNREPLAYABLE.equals(response.type())) {
            log.warn("The result of {} could not be encoded for replay; the key is completed without it, so "
                    + "duplicates get an error and nothing runs twice", call.operation());
        }
        response = sealed(response, call);
        return settlement(call, owner, new Completion(call.storedKey(), owner, response, config.ttl().toMillis(),
                call.fingerprint(), call.operation()), lease);
    }

    /**
     * After a failure: the failure kept for replays when cacheable or the client's (a 4xx, unless
     * the call releases those); else, when an attempt's writes
     * committed with the key before the failure, the key completed as "executed, outcome unknown"
     * (duplicates are refused at once, the work never runs again); else the claim released.
     */
    Settlement.Command failureSettlement(IdempotentCall call, IdempotentExecution execution, long lease,
            Throwable failure) {
        IdempotencyConfig config = call.config();
        String owner = execution.ownerToken();
        int clientError = config.onClientError() == ClientErrorHandling.REPLAY
                ? clientErrors.clientErrorStatus(failure) : 0;
        StoredResponse kept = isCacheable(config, failure) ? StoredResponse.failure(failure)
                : clientError != 0 ? StoredResponse.clientError(clientError, failure, clientErrors.detailOf(failure))
                : execution.committedAttempt() != IdempotentExecution.NONE_COMMITTED ? StoredResponse.outcomeUnknown()
                : null;
        Completion completion = kept == null ? null : new Completion(call.storedKey(), owner, sealed(kept, call),
                config.ttl().toMillis(), call.fingerprint(), call.operation());
        return settlement(call, owner, completion, lease);
    }

    /** What settles the claim: {@code completion}, or a release when {@code null}, within the call's limits. */
    private static Settlement.Command settlement(IdempotentCall call, String owner, @Nullable Completion completion,
            long lease) {
        return new Settlement.Command(call.operation(), call.storedKey(), owner, completion, lease,
                call.config().settleLimit().toMillis());
    }

    void observeCompletion(IdempotentCall call, Settlement.@Nullable Result settled) {
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

    void observeFailureSettlement(IdempotentCall call, Settlement.@Nullable Result settled) {
        if (settled == Settlement.Result.LOST) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.LEASE_LOST);
        } else if (settled != Settlement.Result.SETTLED) {
            observer.onOutcome(call.operation(), IdempotencyOutcome.STORE_ERROR);
        }
    }

    /** The response as it is stored: its payload sealed, when protection is on. */
    private StoredResponse sealed(StoredResponse response, IdempotentCall call) {
        String payload = response.payload();
        return payload == null || protection == PayloadProtection.NONE ? response
                : new StoredResponse(response.type(), protection.seal(payload,
                        new PayloadBinding(call.storedKey(), response.type(), call.fingerprint())));
    }

    /** The record a replay or a refusal was decided on: the claim decision names those steps only with one. */
    private static IdempotencyRecord found(@Nullable IdempotencyRecord existing) {
        if (existing == null) {
            throw new IllegalStateException("a replay or a refusal was decided without the record it rests on");
        }
        return existing;
    }

    /** The record with its payload opened. */
    private IdempotencyRecord opened(IdempotencyRecord record, IdempotentCall call) {
        StoredResponse response = record.response();
        // a replay is the hot path: no copy of the record when nothing is sealed
        if (response == null || response.payload() == null || protection == PayloadProtection.NONE) {
            return record;
        }
        String payload = protection.open(response.payload(),
                new PayloadBinding(call.storedKey(), response.type(), record.fingerprint()));
        return new IdempotencyRecord(record.key(), record.name(), record.fingerprint(), record.status(),
                record.ownerToken(), record.leaseExpiresAt(), record.expiresAt(),
                new StoredResponse(response.type(), payload), record.createdAt());
    }

    private static boolean isCacheable(IdempotencyConfig config, Throwable failure) {
        for (Class<? extends Throwable> type : config.cacheableExceptions()) {
            if (type.isInstance(failure)) {
                return true;
            }
        }
        return false;
    }

    /** Builds an {@link IdempotentExecutor}. */
    public static final class Builder {

        private final IdempotencyStore store;

        private final ResponseCodec codec;

        private IdempotencyObserver observer = IdempotencyObserver.NOOP;

        private ClientErrorReplay clientErrors = ClientErrorReplay.NONE;

        private PayloadProtection protection = PayloadProtection.NONE;

        private TimeSource time = TimeSource.SYSTEM;

        private Rollouts rollouts = Rollouts.enforceAll();

        private @Nullable Scheduler scheduler;

        private ContextPropagator propagator = ContextPropagator.NONE;

        private Builder(IdempotencyStore store, ResponseCodec codec) {
            this.store = Objects.requireNonNull(store, "store");
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        /**
         * @param value how stored responses look at rest (sealed, or as they are)
         * @return this builder
         */
        public Builder payloadProtection(PayloadProtection value) {
            this.protection = Objects.requireNonNull(value, "protection");
            return this;
        }

        /**
         * @param value tells a client's failure (4xx) from others, and rebuilds it for a replay
         * @return this builder
         */
        public Builder clientErrors(ClientErrorReplay value) {
            this.clientErrors = Objects.requireNonNull(value, "clientErrors");
            return this;
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
         * @param value where settlements, lease extensions and waits run, and the clock of their
         *     delays; by default the engine's own threads (the deterministic simulation of the
         *     protocol passes its own)
         * @return this builder
         */
        public Builder scheduler(Scheduler value) {
            this.scheduler = Objects.requireNonNull(value, "scheduler");
            return this;
        }

        /**
         * @param value which operations enforce their duplicate handling and which only observe it
         *     (for which share of keys); every one enforced by default
         * @return this builder
         */
        public Builder rollouts(Rollouts value) {
            this.rollouts = Objects.requireNonNull(value, "rollouts");
            return this;
        }

        /**
         * @param value carries thread-bound state (a tracer's span, a security context) from the
         *     caller of an asynchronous execution to the polls of its wait, where a duplicate whose
         *     first owner gave the key up starts its own work; the trace context and the MDC travel
         *     without it (TTL); nothing else by default
         * @return this builder
         */
        public Builder contextPropagator(ContextPropagator value) {
            this.propagator = Objects.requireNonNull(value, "propagator");
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
