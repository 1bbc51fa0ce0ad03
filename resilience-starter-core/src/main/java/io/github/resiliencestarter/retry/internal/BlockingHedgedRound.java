package io.github.resiliencestarter.retry.internal;

import io.github.resiliencestarter.context.CancelMark;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.core.CheckedCallable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The blocking adapter of a {@link HedgeRound}: every attempt runs on the runtime's executor
 * while the calling thread only waits and decides; it returns on the first acceptable outcome
 * (cancelling the others), on a failure that is not retryable (likewise), or when every attempt
 * failed. Only the calling thread touches the fields; workers hand their outcomes over the queue.
 *
 * @param <T> the result type
 */
final class BlockingHedgedRound<T extends @Nullable Object> {

    private final RetryEngine engine;

    private final CheckedCallable<T> work;

    private final TraceContext outer;

    private final @Nullable Deadline deadline;

    private final HedgeRound round;

    private final BlockingQueue<Finished<T>> finished = new LinkedBlockingQueue<>();

    private final List<Flight> inFlight = new ArrayList<>(2);

    /** Attempts of the whole call started so far, this round's included. */
    int attempts;

    /** The attempt whose outcome decides the round. */
    int decisive;

    @Nullable T result;

    @Nullable Throwable failure;

    /** Set when the calling thread was interrupted while waiting. */
    @Nullable InterruptedException interrupted;

    BlockingHedgedRound(RetryEngine engine, CheckedCallable<T> work, TraceContext outer, int attemptsBefore,
            long started) {
        this.engine = engine;
        this.work = work;
        this.outer = outer;
        this.deadline = outer.deadline();
        this.attempts = attemptsBefore;
        this.round = new HedgeRound(engine, attemptsBefore + 1, started);
    }

    int first() {
        return round.first;
    }

    int hedges() {
        return round.hedges;
    }

    List<Throwable> otherFailures() {
        return round.otherFailures;
    }

    void run() {
        Flight primary = start(round.first);
        attempts = round.first;
        if (primary == null) {
            // executor saturated: the caller runs this round's attempt itself, unhedged
            decisive = round.first;
            try {
                result = engine.runAttempt(work, outer, round.first, null);
            } catch (Throwable error) {
                failure = error;
            }
            return;
        }
        long delay = round.delayNanos();
        long nextHedge = round.started + delay;
        boolean mayHedge = true;
        try {
            for (;;) {
                Finished<T> done;
                if (mayHedge && round.hasHedgesLeft(attempts)) {
                    long wait = nextHedge - engine.time.nanoTime();
                    done = wait > 0 ? finished.poll(wait, TimeUnit.NANOSECONDS) : finished.poll();
                    if (done == null) {
                        mayHedge = startHedge(delay, engine.time.nanoTime() - round.started);
                        nextHedge = engine.time.nanoTime() + delay;
                        continue;
                    }
                } else {
                    done = finished.take();
                }
                inFlight.remove(done.flight);
                if (round.endsWith(done.failure, done.result, !inFlight.isEmpty())) {
                    if (engine.decider.isAcceptable(done.failure, done.result)) {
                        round.recordLatency(done.flight == primary, primary.startedNanos, inFlight.contains(primary),
                                done.endedNanos);
                    }
                    decisive = done.flight.number;
                    result = done.result;
                    failure = done.failure;
                    cancelInFlight(CancelMark.Reason.LOST_TO_HEDGE);
                    return;
                }
            }
        } catch (InterruptedException ex) {
            cancelInFlight(CancelMark.Reason.CALLER_GONE);
            Thread.currentThread().interrupt();
            interrupted = ex;
        }
    }

    /** Starts a hedge when the round allows one and the executor takes it; returns whether one started. */
    private boolean startHedge(long delay, long waited) {
        if (!round.mayHedge(attempts, deadline, delay) || start(attempts + 1) == null) {
            return false;
        }
        attempts++;
        round.hedges++;
        engine.observer.onHedge(engine.operation, attempts, waited);
        return true;
    }

    private @Nullable Flight start(int number) {
        Flight flight = new Flight(number, engine.time.nanoTime());
        try {
            flight.future = engine.hedgeRuntime().offload(() -> {
                T value = null;
                Throwable error = null;
                try {
                    value = engine.runAttempt(work, outer, number, flight.mark);
                } catch (Throwable ex) {
                    error = ex;
                }
                finished.add(new Finished<>(flight, value, error, engine.time.nanoTime()));
                return null;
            });
        } catch (RejectedExecutionException ex) {
            return null;
        }
        inFlight.add(flight);
        return flight;
    }

    /** Stops the attempts still running, each marked first, so that what judges them knows why. */
    private void cancelInFlight(CancelMark.Reason why) {
        for (Flight flight : inFlight) {
            Future<?> future = flight.future;
            if (future != null) {
                flight.mark.cancel(future, why);
            }
        }
        inFlight.clear();
    }

    /** One attempt of the round on its way. */
    private static final class Flight {

        final int number;

        final long startedNanos;

        final CancelMark mark = new CancelMark();

        volatile @Nullable Future<?> future;

        Flight(int number, long startedNanos) {
            this.number = number;
            this.startedNanos = startedNanos;
        }
    }

    /** How one attempt of the round ended. */
    private record Finished<T>(Flight flight, @Nullable T result, @Nullable Throwable failure, long endedNanos) {
    }
}
