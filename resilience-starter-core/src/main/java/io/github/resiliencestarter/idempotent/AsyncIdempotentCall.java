package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.idempotent.internal.ClaimProgress;
import io.github.resiliencestarter.idempotent.internal.ClaimStep;
import io.github.resiliencestarter.idempotent.internal.LeaseKeeper;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * The asynchronous driver of an idempotent execution: the same {@link ClaimProgress} decisions as
 * the blocking driver, but a waiting duplicate polls on scheduled tasks (no thread is parked), and
 * owned work's completion is settled on the settlement threads. Cancelling the result does not
 * cancel the work's own stage: its key stays claimed until the work's outcome is settled.
 *
 * @param <T> the value type
 */
final class AsyncIdempotentCall<T> {

    private final IdempotentExecutor executor;

    private final IdempotentCall call;

    private final CheckedCallable<? extends CompletionStage<T>> work;

    private final Runnable onReplay;

    private final CompletableFuture<IdempotentResult<T>> result = new CompletableFuture<>();

    private final TraceContext context = TraceContextHolder.current();

    private final long lease;

    private final String owner = TraceIds.generate();

    private final ClaimProgress progress;

    private AsyncIdempotentCall(IdempotentExecutor executor, IdempotentCall call,
            CheckedCallable<? extends CompletionStage<T>> work, Runnable onReplay) {
        this.executor = executor;
        this.call = call;
        this.work = work;
        this.onReplay = onReplay;
        this.lease = IdempotentExecutor.leaseMillis(call.config(), context.deadline());
        this.progress = new ClaimProgress(call.config(), call.fingerprint(), context.deadline(), lease, executor.time);
    }

    static <T> CompletableFuture<IdempotentResult<T>> start(IdempotentExecutor executor, IdempotentCall call,
            CheckedCallable<? extends CompletionStage<T>> work, Runnable onReplay) {
        AsyncIdempotentCall<T> execution = new AsyncIdempotentCall<>(executor, call, work, onReplay);
        execution.claim();
        return execution.result;
    }

    private void claim() {
        try {
            ClaimResult claim;
            try {
                progress.sending();
                claim = executor.claim(IdempotentExecutor.claimOf(call, owner, lease));
            } catch (IdempotencyStoreException ex) {
                if (!executor.failsOpen(call)) {
                    throw ex;
                }
                runUnowned();
                return;
            }
            carryOut(progress.afterClaim(claim), claim.existing());
        } catch (Throwable ex) {
            result.completeExceptionally(ex);
        }
    }

    private void carryOut(ClaimStep step, @Nullable IdempotencyRecord existing) throws Throwable {
        if (executor.observesInstead(call, step)) {
            runUnowned();
            return;
        }
        switch (step) {
            case RUN -> {
                if (IdempotentExecutor.answeredTooLate(context.deadline())) {
                    executor.settlement.settleAsync(IdempotentExecutor.releaseOf(call, owner, lease),
                            LeaseKeeper.Lease.NONE).whenComplete((settled, ignored) -> {
                                executor.observeFailureSettlement(call, settled);
                                result.completeExceptionally(DeadlineExceededException.budgetSpent(call.operation()));
                            });
                    return;
                }
                runOwned();
            }
            case CONFIRM -> {
                progress.sending();
                carryOut(progress.afterConfirm(executor.store.extendLease(call.storedKey(), owner, lease)), existing);
            }
            case REPLAY -> result.complete(executor.replay(call, existing, onReplay));
            case KEY_REUSED, REJECT -> throw executor.refusal(call, step, existing);
            // a scheduled poll, not a parked thread, carrying the caller's state: the poll may start work
            case WAIT -> executor.waits.schedule(executor.propagator.carry(this::pollAgain), progress.waitMillis());
            case CLAIM_AGAIN -> claim();
        }
    }

    private void pollAgain() {
        if (result.isDone()) {
            return;
        }
        try {
            IdempotencyRecord found = executor.store.find(call.storedKey());
            carryOut(progress.afterPoll(found), found);
        } catch (Throwable ex) {
            result.completeExceptionally(ex);
        }
    }

    private void runOwned() {
        long keepFor = IdempotentExecutor.keepMillis(call.config());
        // kept however short (a short one lengthened at once): the work may outlive its caller's deadline
        LeaseKeeper.Lease kept = executor.leases.keep(executor.store, call.storedKey(), owner, lease,
                keepFor);
        long started = executor.time.nanoTime();
        Object held = executor.settlement.hold(call.storedKey(), keepFor);
        IdempotentExecution execution = new IdempotentExecution(call.storedKey(), owner);
        CompletableFuture<T> stage;
        try (TraceScope scope = TraceContextHolder.open(context.withIdempotentExecution(execution))) {
            stage = startWork();
        }
        // a caller that gives up (a timeout, a client gone) does not cancel the work: a cancelled
        // future says nothing of the work behind it (supplyAsync goes on; a request may be sent), so
        // the key stays claimed and held while the work runs (up to the keep limit, whatever the
        // deadline), and the work's outcome is settled as if the caller had waited for it
        stage.whenComplete((value, failure) -> {
            if (failure != null) {
                Throwable cause = Causes.unwrapAsync(failure);
                executor.settlement.settleAsync(executor.failureSettlement(call, execution, lease, cause), kept, held)
                        .whenComplete((settled, ignored) -> {
                            executor.observeFailureSettlement(call, settled);
                            result.completeExceptionally(cause);
                        });
            } else {
                executor.recordDuration(call, started);
                executor.settlement.settleAsync(executor.completionSettlement(call, execution, lease, value), kept, held)
                        .whenComplete((settled, ignored) -> {
                            executor.observeCompletion(call, settled);
                            result.complete(new IdempotentResult<>(value, false));
                        });
            }
        });
    }

    /** The work as without the annotation: nothing claimed, nothing recorded. */
    private void runUnowned() {
        startWork().whenComplete((value, failure) -> {
            if (failure != null) {
                result.completeExceptionally(Causes.unwrapAsync(failure));
            } else {
                result.complete(new IdempotentResult<>(value, false));
            }
        });
    }

    private CompletableFuture<T> startWork() {
        try {
            return work.call().toCompletableFuture();
        } catch (Throwable ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }
}
