package io.github.resiliencestarter.retry.internal;

import io.github.resiliencestarter.context.CancelMark;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.core.Causes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The asynchronous adapter of a {@link HedgeRound}: its first attempt starts on the calling
 * thread; a scheduled task adds a hedge, built on the runtime's executor, each time the round has
 * waited the hedge delay; the first acceptable completion wins and the others' futures are
 * cancelled. Its attempts complete on any thread, so the round is guarded by itself.
 *
 * @param <T> the result type
 */
final class AsyncHedgedRound<T> {

    private final AsyncRetry<T> call;

    private final RetryEngine engine;

    private final HedgeRound round;

    private final List<Flight<T>> inFlight = new ArrayList<>(2);

    private boolean over;

    private @Nullable Flight<T> primary;

    AsyncHedgedRound(AsyncRetry<T> call, int first) {
        this.call = call;
        this.engine = call.engine;
        this.round = new HedgeRound(engine, first, engine.time.nanoTime());
    }

    void start() {
        synchronized (this) {
            call.attempts = round.first;
            launch(round.first);
            if (!over) {
                scheduleHedge(round.delayNanos());
            }
        }
    }

    /** Starts one attempt on the current thread; the caller holds the round. */
    private void launch(int number) {
        Flight<T> flight = new Flight<>(number, engine.time.nanoTime());
        if (number == round.first) {
            primary = flight;
        }
        inFlight.add(flight);
        CompletableFuture<T> stage = engine.startAttempt(call.work, call.outer, number, flight.mark);
        flight.stage = stage;
        call.cancelWithCaller(stage, flight.mark);
        stage.whenComplete((value, failure) -> finished(flight, value,
                failure == null ? null : Causes.unwrapAsync(failure)));
    }

    private void scheduleHedge(long delay) {
        if (!round.hasHedgesLeft(call.attempts)) {
            return;
        }
        // carried to the scheduler's thread, and from there, by the offload, to the worker
        CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS).execute(engine.carried(() -> hedgeDue(delay)));
    }

    private void hedgeDue(long delay) {
        int number;
        synchronized (this) {
            Deadline deadline = call.outer.deadline();
            if (over || call.result.isDone() || !round.mayHedge(call.attempts, deadline, delay)) {
                return;
            }
            number = ++call.attempts;
            round.hedges++;
            call.hedges++;
        }
        try {
            engine.hedgeRuntime().offload(() -> {
                synchronized (this) {
                    if (!over) {
                        engine.observer.onHedge(engine.operation, number, engine.time.nanoTime() - round.started);
                        launch(number);
                        if (!over) {
                            scheduleHedge(delay);
                        }
                    }
                }
                return null;
            });
        } catch (RejectedExecutionException ex) {
            synchronized (this) {
                // executor saturated: the hedge never started, give its number back
                call.attempts--;
                round.hedges--;
                call.hedges--;
            }
        }
    }

    private void finished(Flight<T> flight, @Nullable T value, @Nullable Throwable failure) {
        int decidingAttempts;
        List<Throwable> others;
        synchronized (this) {
            if (over) {
                return; // a loser, cancelled or late
            }
            inFlight.remove(flight);
            if (!round.endsWith(failure, value, !inFlight.isEmpty())) {
                return; // the others in flight may still succeed
            }
            over = true;
            Flight<T> first = primary;
            if (first != null && engine.decider.isAcceptable(failure, value)) {
                round.recordLatency(flight == first, first.started, inFlight.contains(first), engine.time.nanoTime());
            }
            for (Flight<T> other : inFlight) {
                CompletableFuture<T> stage = other.stage;
                if (stage != null) {
                    other.mark.cancel(stage, CancelMark.Reason.LOST_TO_HEDGE);
                }
            }
            inFlight.clear();
            decidingAttempts = call.attempts;
            others = round.otherFailures;
        }
        call.decideAfter(decidingAttempts, flight.number, flight.number != round.first, round.started, value, failure,
                others);
    }

    /** One attempt of the round. */
    private static final class Flight<T> {

        final int number;

        final long started;

        final CancelMark mark = new CancelMark();

        @Nullable CompletableFuture<T> stage;

        Flight(int number, long started) {
            this.number = number;
            this.started = started;
        }
    }
}
