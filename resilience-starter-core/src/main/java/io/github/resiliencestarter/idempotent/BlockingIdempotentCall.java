package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.idempotent.internal.ClaimProgress;
import io.github.resiliencestarter.idempotent.internal.ClaimStep;
import io.github.resiliencestarter.idempotent.internal.LeaseKeeper;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import org.jspecify.annotations.Nullable;

/**
 * The blocking driver of an idempotent execution: claims on the calling thread, carries out what
 * {@link ClaimProgress} decides (a waiting duplicate sleeps between polls), runs owned work on the
 * calling thread while its lease is kept, and settles through the executor's settlement.
 */
final class BlockingIdempotentCall {

    private BlockingIdempotentCall() {
    }

    static <T extends @Nullable Object> IdempotentResult<T> run(IdempotentExecutor executor, IdempotentCall call,
            CheckedCallable<T> work, Runnable onReplay) throws Throwable {
        TraceContext context = TraceContextHolder.current();
        Deadline deadline = context.deadline();
        long lease = IdempotentExecutor.leaseMillis(call.config(), deadline);
        String owner = TraceIds.generate();
        Claim request = IdempotentExecutor.claimOf(call, owner, lease);
        ClaimProgress progress = new ClaimProgress(call.config(), call.fingerprint(), deadline, lease, executor.time);
        while (true) {
            ClaimResult claim;
            try {
                progress.sending();
                claim = executor.claim(request);
            } catch (IdempotencyStoreException ex) {
                if (executor.failsOpen(call)) {
                    return new IdempotentResult<>(work.call(), false);
                }
                throw ex;
            }
            IdempotencyRecord existing = claim.existing();
            ClaimStep step = progress.afterClaim(claim);
            if (executor.observesInstead(call, step)) {
                return new IdempotentResult<>(work.call(), false);
            }
            while (step == ClaimStep.CONFIRM) {
                progress.sending();
                step = progress.afterConfirm(executor.store.extendLease(call.storedKey(), owner, lease));
            }
            while (step == ClaimStep.WAIT) {
                executor.waits.sleep(progress.waitMillis());
                IdempotencyRecord found = executor.store.find(call.storedKey());
                step = progress.afterPoll(found);
                if (found != null) {
                    existing = found;
                }
            }
            switch (step) {
                case RUN:
                    if (IdempotentExecutor.answeredTooLate(deadline)) {
                        executor.observeFailureSettlement(call, executor.settlement.settle(
                                IdempotentExecutor.releaseOf(call, owner, lease), LeaseKeeper.Lease.NONE));
                        throw DeadlineExceededException.budgetSpent(call.operation());
                    }
                    return runOwned(executor, call, work, owner, lease, context);
                case REPLAY:
                    return executor.replay(call, existing, onReplay);
                case KEY_REUSED:
                case REJECT:
                    throw executor.refusal(call, step, existing);
                default:
                    // CLAIM_AGAIN: released or abandoned while waiting
                    break;
            }
        }
    }

    private static <T extends @Nullable Object> IdempotentResult<T> runOwned(IdempotentExecutor executor,
            IdempotentCall call, CheckedCallable<T> work, String owner, long lease, TraceContext context)
            throws Throwable {
        T value;
        long keepFor = IdempotentExecutor.keepMillis(call.config());
        // kept however short (a short one lengthened at once): work that ignores its interrupt still commits
        LeaseKeeper.Lease kept = executor.leases.keep(executor.store, call.storedKey(), owner, lease,
                keepFor);
        long started = executor.time.nanoTime();
        Object held = executor.settlement.hold(call.storedKey(), keepFor);
        IdempotentExecution execution = new IdempotentExecution(call.storedKey(), owner);
        try (TraceScope scope = TraceContextHolder.open(context.withIdempotentExecution(execution))) {
            value = work.call();
            executor.recordDuration(call, started);
        } catch (Throwable failure) {
            executor.observeFailureSettlement(call, executor.settlement.settle(
                    executor.failureSettlement(call, execution, lease, failure), kept, held));
            throw failure;
        }
        executor.observeCompletion(call, executor.settlement.settle(
                executor.completionSettlement(call, execution, lease, value), kept, held));
        return new IdempotentResult<>(value, false);
    }
}
