package io.github.resiliencestarter.retry.internal;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.Results;
import io.github.resiliencestarter.retry.RetryObserver;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The blocking driver of the retry decision: attempts (or hedged rounds) on the calling thread,
 * one after another, the waits between them slept by the engine's sleeper. The call's state lives
 * in this driver's frame.
 */
public final class BlockingRetry {

    private BlockingRetry() {
    }

    /**
     * Runs {@code work} under the engine's settings.
     *
     * @param engine the retrier's engine
     * @param work the work
     * @param hedging whether rounds are hedged (their attempts on the runtime's executor)
     * @param <T> the result type
     * @return the first acceptable result, or the last result when attempts ran out on results
     * @throws Throwable the last failure, with earlier ones attached as suppressed
     */
    public static <T extends @Nullable Object> T run(RetryEngine engine, CheckedCallable<T> work, boolean hedging)
            throws Throwable {
        TraceContext outer = engine.scopeOf(TraceContextHolder.current());
        Deadline deadline = outer.deadline();
        if (deadline != null && deadline.isExpired()) {
            throw DeadlineExceededException.budgetSpent(engine.operation);
        }
        engine.config.budget().recordCall();
        boolean observing = engine.observes(outer);
        // an observed call runs one attempt as without @Retry: never a hedge beside it
        boolean hedged = hedging && !observing;
        // clock reads cost ~20 ns each: only when someone needs the duration or a deadline needs the attempt time
        boolean observed = engine.observer != RetryObserver.NOOP;
        long callStarted = observed ? engine.time.nanoTime() : 0;
        List<Throwable> earlier = null;
        long previousDelay = 0;
        int attempts = 0;
        int hedges = 0;
        for (;;) {
            long started = deadline != null || hedged ? engine.time.nanoTime() : 0;
            @Nullable T result = null;
            Throwable failure = null;
            int decisive;
            boolean hedgeDecided = false;
            if (hedged) {
                BlockingHedgedRound<T> round = new BlockingHedgedRound<>(engine, work, outer, attempts, started);
                round.run();
                attempts = round.attempts;
                hedges += round.hedges();
                if (!round.otherFailures().isEmpty()) {
                    if (earlier == null) {
                        earlier = new ArrayList<>(engine.config.maxAttempts());
                    }
                    earlier.addAll(round.otherFailures());
                }
                if (round.interrupted != null) {
                    // the caller was interrupted while waiting: the attempts are cancelled, nothing is retried
                    throw engine.finish(round.interrupted, earlier, attempts, hedges, RetryStop.INTERRUPTED,
                            RetryStop.INTERRUPTED.reason(), callStarted, outer);
                }
                result = round.result;
                failure = round.failure;
                decisive = round.decisive;
                hedgeDecided = decisive != round.first();
            } else {
                decisive = ++attempts;
                try {
                    result = engine.runAttempt(work, outer, attempts, null);
                } catch (Throwable error) {
                    failure = error;
                }
            }
            RetryDecision decision = engine.decider.decide(attempts, failure, result, previousDelay, started, deadline,
                    outer, observing);
            if (decision == RetryDecision.ACCEPT) {
                if (hedgeDecided) {
                    engine.observer.onHedgeWon(engine.operation, decisive);
                }
                if (observed) {
                    engine.succeeded(decisive, attempts, callStarted);
                }
                return Results.returned(result);
            }
            RetryStop stop = decision.stop();
            long delay = decision.delay();
            if (stop != null) {
                if (failure == null) {
                    engine.endedOnResult(attempts, stop, callStarted);
                    return Results.returned(result);
                }
                throw engine.finish(failure, earlier, attempts, hedges, stop, decision.reason(), callStarted, outer);
            }
            engine.observer.onRetry(engine.operation, attempts + 1, failure, delay);
            try {
                engine.sleeper.sleep(delay);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                if (failure == null) {
                    throw ex;
                }
                throw engine.finish(failure, earlier, attempts, hedges, RetryStop.INTERRUPTED,
                        RetryStop.INTERRUPTED.reason(), callStarted, outer);
            }
            // joins the earlier failures once another attempt follows it; an interrupted wait ends on it
            if (failure != null) {
                if (earlier == null) {
                    earlier = new ArrayList<>(engine.config.maxAttempts());
                }
                earlier.add(failure);
            }
            previousDelay = delay;
        }
    }
}
