package io.github.resiliencestarter.retry.internal;

import io.github.resiliencestarter.context.CancelMark;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.Stages;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The asynchronous driver of the retry decision: one call, its attempts (or hedged rounds) one
 * after another, each started by the end of the last; no thread waits between them (the next one
 * is a scheduled task). Each attempt re-invokes the work, which builds a new result on the thread
 * that starts the attempt, inside the trace context with that attempt's number. Cancelling the
 * call's result cancels the attempt in flight and stops.
 *
 * @param <T> the result type
 */
public final class AsyncRetry<T> {

    final RetryEngine engine;

    final CheckedCallable<? extends CompletionStage<T>> work;

    final TraceContext outer;

    final CompletableFuture<T> result = new CompletableFuture<>();

    /** Whether the call only observes: one attempt, never hedged, a due retry counted instead. */
    private final boolean observing;

    private final long callStarted;

    private @Nullable List<Throwable> earlier;

    private long previousDelay;

    /** Attempts started so far, hedges included; changed only by the round in progress. */
    int attempts;

    /** Hedges started so far; changed only by the round in progress. */
    int hedges;

    private AsyncRetry(RetryEngine engine, CheckedCallable<? extends CompletionStage<T>> work, TraceContext outer) {
        this.engine = engine;
        this.work = work;
        this.outer = outer;
        this.callStarted = engine.time.nanoTime();
        this.observing = engine.observes(outer);
    }

    /**
     * Runs asynchronous work under the engine's settings.
     *
     * @param engine the retrier's engine
     * @param work builds one attempt's asynchronous result
     * @param <T> the result type
     * @return the first acceptable result, or the last failure with earlier ones suppressed
     */
    public static <T> CompletableFuture<T> run(RetryEngine engine, CheckedCallable<? extends CompletionStage<T>> work) {
        TraceContext outer = engine.scopeOf(TraceContextHolder.current());
        Deadline deadline = outer.deadline();
        if (deadline != null && deadline.isExpired()) {
            return CompletableFuture.failedFuture(DeadlineExceededException.budgetSpent(engine.operation));
        }
        engine.config.budget().recordCall();
        AsyncRetry<T> call = new AsyncRetry<>(engine, work, outer);
        call.attempt(1);
        return call.result;
    }

    private void attempt(int attempt) {
        if (result.isDone()) {
            return; // cancelled by the caller while waiting
        }
        if (engine.hedges() && !observing) {
            new AsyncHedgedRound<>(this, attempt).start();
            return;
        }
        attempts = attempt;
        long started = engine.time.nanoTime();
        // no mark: a caller's cancel reaches a breaker inside as the cancel of the breaker's own future
        CompletableFuture<T> stage = engine.startAttempt(work, outer, attempt, null);
        Stages.cancelling(result, stage);
        stage.whenComplete((value, failure) -> decideAfter(attempt, attempt, false, started, value,
                failure == null ? null : Causes.unwrapAsync(failure), List.of()));
    }

    /** Cancelling the call's result cancels {@code stage}, marked as given up by its caller. */
    void cancelWithCaller(CompletableFuture<T> stage, CancelMark mark) {
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                mark.cancel(stage, CancelMark.Reason.CALLER_GONE);
            }
        });
    }

    /**
     * Decides after an attempt or a round.
     *
     * @param attempt the number of attempts started so far
     * @param winner the number of the attempt whose outcome decides
     * @param hedgeDecided whether that attempt is a hedge
     * @param started when the attempt or round started
     * @param value its result
     * @param failure its failure, or {@code null}
     * @param otherFailures failures of a round's other attempts
     */
    void decideAfter(int attempt, int winner, boolean hedgeDecided, long started, @Nullable T value,
            @Nullable Throwable failure, List<Throwable> otherFailures) {
        if (!otherFailures.isEmpty()) {
            if (earlier == null) {
                earlier = new ArrayList<>(engine.config.maxAttempts());
            }
            earlier.addAll(otherFailures);
        }
        RetryDecision decision = engine.decider.decide(attempt, failure, value, previousDelay, started,
                outer.deadline(), outer, observing);
        if (decision == RetryDecision.ACCEPT) {
            if (hedgeDecided) {
                engine.observer.onHedgeWon(engine.operation, winner);
            }
            engine.succeeded(winner, attempt, callStarted);
            result.complete(value);
            return;
        }
        RetryStop stop = decision.stop();
        if (stop != null) {
            if (failure == null) {
                engine.endedOnResult(attempt, stop, callStarted);
                result.complete(value);
            } else {
                result.completeExceptionally(engine.finish(failure, earlier, attempt, hedges, stop,
                        decision.reason(), callStarted, outer));
            }
            return;
        }
        if (failure != null) {
            if (earlier == null) {
                earlier = new ArrayList<>(engine.config.maxAttempts());
            }
            earlier.add(failure);
        }
        engine.observer.onRetry(engine.operation, attempt + 1, failure, decision.delay());
        previousDelay = decision.delay();
        // the wait is a scheduled task, not a parked thread, which carries what is thread-bound here
        CompletableFuture.delayedExecutor(decision.delay(), TimeUnit.NANOSECONDS)
                .execute(engine.carried(() -> attempt(attempt + 1)));
    }
}
