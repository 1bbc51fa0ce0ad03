package io.github.resiliencestarter.retry;

import com.alibaba.ttl.TtlRunnable;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.FailedTargets;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.DurationEstimate;
import io.github.resiliencestarter.retry.backoff.BackOff;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutGuard;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work under a {@link RetryConfig}: the programmatic form of {@code @Retry}.
 *
 * <pre>{@code
 * Retrier retrier = Retrier.of("inventory.reserve", RetryConfig.ofDefaults());
 * Reservation r = retrier.call(() -> inventory.reserve(order));
 * }</pre>
 *
 * <p>Each attempt runs with its attempt number in the trace context (sent downstream as
 * {@code X-Retry-Attempt}). Before each wait and each attempt the loop checks the request's
 * deadline: it never starts a wait, or an attempt after it, that cannot finish in time, counting
 * the attempts' own duration, not only the waits (rules C-1, R-P6). A retry also needs the
 * budget's consent. The error finally thrown is the last attempt's, unchanged in type, with
 * the earlier attempts' errors and a {@link RetrySummary} attached as suppressed. Thread-safe.
 */
public final class Retrier {

    private static final Logger log = LoggerFactory.getLogger(Retrier.class);

    private final String operation;

    private final RetryConfig config;

    private final TimeSource time;

    private final Sleeper sleeper;

    private final @Nullable RandomGenerator random;

    private final RetryObserver observer;

    private final @Nullable TimeoutGuard attemptGuard;

    /** Runs the attempts of a hedged call side by side; {@code null} when the config does not hedge. */
    private final @Nullable TimeoutRuntime hedgeRuntime;

    /** The operation's latency percentile, when hedges follow it. */
    private final @Nullable DurationEstimate latency;

    /** Earlier errors attached to the final one at most; keeps huge attempt counts from bloating it. */
    public static final int MAX_SUPPRESSED = 10;

    private Retrier(Builder builder) {
        this.operation = builder.operation;
        this.config = builder.config;
        this.time = builder.time;
        this.sleeper = builder.sleeper;
        this.random = builder.random;
        this.observer = builder.observer;
        if (config.attemptTimeout() != null) {
            if (builder.timeoutRuntime == null) {
                throw new IllegalStateException("attemptTimeout on " + operation + " needs a TimeoutRuntime");
            }
            this.attemptGuard = TimeoutGuard.of(operation, TimeoutConfig.custom().timeout(config.attemptTimeout())
                    .mode(TimeoutMode.INTERRUPT).build(), builder.timeoutRuntime);
        } else {
            this.attemptGuard = null;
        }
        HedgePolicy hedge = config.hedge();
        if (hedge != null && builder.timeoutRuntime == null) {
            throw new IllegalStateException("hedging on " + operation + " needs a TimeoutRuntime: its executor runs "
                    + "the parallel attempts");
        }
        this.hedgeRuntime = hedge != null ? builder.timeoutRuntime : null;
        this.latency = hedge != null ? hedge.newEstimate() : null;
    }

    /**
     * A retrier with the system clock, real sleeps and no observer.
     *
     * @param operation a name for logs and metrics
     * @param config the settings
     * @return the retrier
     */
    public static Retrier of(String operation, RetryConfig config) {
        return builder(operation, config).build();
    }

    /**
     * A builder, for injecting a clock, sleeper, random source, observer or timeout runtime.
     *
     * @param operation a name for logs and metrics
     * @param config the settings
     * @return a new builder
     */
    public static Builder builder(String operation, RetryConfig config) {
        return new Builder(operation, config);
    }

    /**
     * The settings applied.
     *
     * @return the settings
     */
    public RetryConfig config() {
        return config;
    }

    /**
     * Runs {@code work}, retrying transient failures as the settings allow. With a
     * {@linkplain RetryConfig#hedge() hedge policy}, the attempts run on the timeout runtime's
     * executor while the calling thread waits: a slow attempt gets a parallel one after the policy's
     * delay, the first success wins and the others are interrupted.
     *
     * @param work the work
     * @param <T> the result type
     * @return the first acceptable result, or the last result when attempts ran out on results
     * @throws Throwable the last failure, with earlier ones attached as suppressed
     */
    public <T> T call(CheckedCallable<T> work) throws Throwable {
        return loop(work, hedgeRuntime != null);
    }

    /**
     * Runs {@code work} like {@link #call}, but every attempt on the calling thread and never
     * hedged: for a caller whose thread-bound state must stay with the work, such as an open
     * transaction.
     *
     * @param work the work
     * @param <T> the result type
     * @return the first acceptable result, or the last result when attempts ran out on results
     * @throws Throwable the last failure, with earlier ones attached as suppressed
     */
    public <T> T callInPlace(CheckedCallable<T> work) throws Throwable {
        return loop(work, false);
    }

    private <T> T loop(CheckedCallable<T> work, boolean hedging) throws Throwable {
        TraceContext outer = scopeOf(TraceContextHolder.current());
        Deadline deadline = outer.deadline();
        if (deadline != null && deadline.isExpired()) {
            throw DeadlineExceededException.budgetSpent(operation);
        }
        config.budget().recordCall();
        // clock reads cost ~20 ns each: only when someone needs the duration or a deadline needs the attempt time
        boolean observed = observer != RetryObserver.NOOP;
        long callStarted = observed ? time.nanoTime() : 0;
        RandomGenerator rnd = random != null ? random : ThreadLocalRandom.current();
        List<Throwable> earlier = null;
        long previousDelay = 0;
        int attempts = 0;
        int hedges = 0;
        for (;;) {
            long started = deadline != null || hedging ? time.nanoTime() : 0;
            T result = null;
            Throwable failure = null;
            int decisive;
            boolean hedgeDecided = false;
            if (hedging) {
                HedgedRound<T> round = new HedgedRound<>(work, outer, deadline, attempts);
                round.run(started);
                attempts = round.attempts;
                hedges += round.hedges;
                earlier = round.addOtherFailuresTo(earlier);
                if (round.interrupted != null) {
                    // the caller was interrupted while waiting: the attempts are cancelled, nothing is retried
                    throw finish(round.interrupted, earlier, attempts, hedges, Stop.INTERRUPTED,
                            Stop.INTERRUPTED.reason, callStarted, outer);
                }
                result = round.result;
                failure = round.failure;
                decisive = round.decisive;
                hedgeDecided = decisive != round.first;
            } else {
                decisive = ++attempts;
                try {
                    result = runAttempt(work, outer, attempts);
                } catch (Throwable error) {
                    failure = error;
                }
            }
            Decision decision = decide(attempts, failure, result, previousDelay, started, deadline, rnd);
            if (decision == Decision.ACCEPT) {
                if (hedgeDecided) {
                    observer.onHedgeWon(operation, decisive);
                }
                if (observed) {
                    observer.onComplete(operation, decisive == 1 ? RetryOutcome.SUCCESS_WITHOUT_RETRY
                            : RetryOutcome.SUCCESS_WITH_RETRY, attempts, time.nanoTime() - callStarted);
                }
                return result;
            }
            Stop stop = decision.stop();
            long delay = decision.delay();
            if (stop != null) {
                if (failure == null) {
                    // results kept asking for a retry: the last one is still the answer
                    observer.onComplete(operation, outcome(attempts, stop), attempts, time.nanoTime() - callStarted);
                    return result;
                }
                throw finish(failure, earlier, attempts, hedges, stop, decision.reason(), callStarted, outer);
            }
            if (failure != null) {
                if (earlier == null) {
                    earlier = new ArrayList<>(config.maxAttempts());
                }
                earlier.add(failure);
            }
            observer.onRetry(operation, attempts + 1, failure, delay);
            try {
                sleeper.sleep(delay);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                if (failure == null) {
                    throw ex;
                }
                earlier.remove(earlier.size() - 1);
                throw finish(failure, earlier, attempts, hedges, Stop.INTERRUPTED, Stop.INTERRUPTED.reason,
                        callStarted, outer);
            }
            previousDelay = delay;
        }
    }

    /**
     * Runs asynchronous work, retrying failed completions as the settings allow: the same
     * classification, back-off, jitter, deadline and budget as {@link #call}, but no thread waits
     * between attempts (the next one is scheduled). Each attempt re-invokes {@code work}, which
     * builds a new result on the thread that starts the attempt, inside the trace context with that
     * attempt's number. Cancelling the returned future cancels the attempt in flight and stops.
     *
     * <p>With a {@linkplain RetryConfig#hedge() hedge policy}, a round whose attempts have not
     * completed after the policy's delay gets a parallel attempt, built on the timeout runtime's
     * executor; the first acceptable completion wins and the others' futures are cancelled.
     *
     * @param work builds one attempt's asynchronous result
     * @param <T> the result type
     * @return the first acceptable result, or the last failure with earlier ones suppressed
     */
    public <T> CompletableFuture<T> callAsync(CheckedCallable<? extends CompletionStage<T>> work) {
        TraceContext outer = scopeOf(TraceContextHolder.current());
        Deadline deadline = outer.deadline();
        if (deadline != null && deadline.isExpired()) {
            return CompletableFuture.failedFuture(DeadlineExceededException.budgetSpent(operation));
        }
        config.budget().recordCall();
        CompletableFuture<T> result = new CompletableFuture<>();
        new AsyncCall<>(work, outer, result).attempt(1);
        return result;
    }

    /**
     * One asynchronous call: its rounds run one after another, each started by the last one's end.
     * Without hedging a round is one attempt; with hedging, a round may add parallel attempts
     * (hedges), started on the runtime's executor by a scheduled task, until one is accepted or all
     * failed. A round's state is guarded by the round itself: its attempts complete on any thread.
     */
    private final class AsyncCall<T> {

        private final CheckedCallable<? extends CompletionStage<T>> work;

        private final TraceContext outer;

        private final CompletableFuture<T> result;

        private final long callStarted = time.nanoTime();

        private @Nullable List<Throwable> earlier;

        private long previousDelay;

        /** Attempts started so far, hedges included; changed only by the round in progress. */
        private int attempts;

        private int hedges;

        AsyncCall(CheckedCallable<? extends CompletionStage<T>> work, TraceContext outer, CompletableFuture<T> result) {
            this.work = work;
            this.outer = outer;
            this.result = result;
        }

        void attempt(int attempt) {
            if (result.isDone()) {
                return; // cancelled by the caller while waiting
            }
            if (hedgeRuntime != null) {
                round(attempt);
                return;
            }
            attempts = attempt;
            long started = time.nanoTime();
            CompletableFuture<T> stage = startAttempt(attempt);
            cancelWithCaller(stage);
            stage.whenComplete((value, failure) -> settle(attempt, false, started, value,
                    failure == null ? null : Causes.unwrapAsync(failure), null));
        }

        private void cancelWithCaller(CompletableFuture<T> stage) {
            result.whenComplete((value, failure) -> {
                if (result.isCancelled()) {
                    stage.cancel(true);
                }
            });
        }

        private void round(int first) {
            AsyncRound<T> round = new AsyncRound<>(first, time.nanoTime());
            synchronized (round) {
                attempts = first;
                launch(round, first);
                if (!round.over) {
                    scheduleHedge(round, config.hedge().delayNanos(latency));
                }
            }
        }

        /** Starts one attempt of {@code round} on the current thread; the caller holds the round. */
        private void launch(AsyncRound<T> round, int number) {
            AsyncFlight<T> flight = new AsyncFlight<>(number, time.nanoTime());
            if (number == round.first) {
                round.primary = flight;
            }
            round.inFlight.add(flight);
            flight.stage = startAttempt(number);
            cancelWithCaller(flight.stage);
            flight.stage.whenComplete((value, failure) -> finished(round, flight, value,
                    failure == null ? null : Causes.unwrapAsync(failure)));
        }

        private void scheduleHedge(AsyncRound<T> round, long delay) {
            if (round.hedges >= config.hedge().maxHedges() || attempts >= config.maxAttempts()) {
                return;
            }
            // TTL carries the trace context and MDC to the scheduler's thread, and from there to the worker
            CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS)
                    .execute(TtlRunnable.get(() -> hedgeDue(round, delay)));
        }

        private void hedgeDue(AsyncRound<T> round, long delay) {
            int number;
            synchronized (round) {
                Deadline deadline = outer.deadline();
                if (round.over || result.isDone() || round.hedges >= config.hedge().maxHedges()
                        || attempts >= config.maxAttempts()
                        || (deadline != null && deadline.remainingNanos()
                                < Math.max(config.minAttemptTime().toNanos(), delay))
                        || !config.budget().tryAcquireRetry()) {
                    return;
                }
                number = ++attempts;
                round.hedges++;
                hedges++;
            }
            try {
                hedgeRuntime.offload(() -> {
                    synchronized (round) {
                        if (!round.over) {
                            observer.onHedge(operation, number, time.nanoTime() - round.started);
                            launch(round, number);
                            if (!round.over) {
                                scheduleHedge(round, delay);
                            }
                        }
                    }
                    return null;
                });
            } catch (RejectedExecutionException ex) {
                synchronized (round) {
                    // executor saturated: the hedge never started, give its number back
                    attempts--;
                    round.hedges--;
                    hedges--;
                }
            }
        }

        private void finished(AsyncRound<T> round, AsyncFlight<T> flight, @Nullable T value,
                @Nullable Throwable failure) {
            int decidingAttempts;
            List<Throwable> others;
            synchronized (round) {
                if (round.over) {
                    return; // a loser, cancelled or late
                }
                round.inFlight.remove(flight);
                boolean accepted = isAcceptable(failure, value);
                boolean unretryable = failure != null && !isRetryable(failure);
                if (!accepted && !unretryable && !round.inFlight.isEmpty()) {
                    if (failure != null) {
                        round.otherFailures.add(failure);
                    }
                    return; // the others in flight may still succeed
                }
                round.over = true;
                if (accepted && latency != null) {
                    AsyncFlight<T> primary = round.primary;
                    if (flight == primary) {
                        latency.record(time.nanoTime() - primary.started);
                    } else if (primary != null && round.inFlight.contains(primary)) {
                        // a lower bound of the slow first attempt, above the hedge delay (see HedgedRound)
                        latency.record(time.nanoTime() - primary.started);
                    }
                }
                for (AsyncFlight<T> other : round.inFlight) {
                    if (other.stage != null) {
                        other.stage.cancel(true);
                    }
                }
                round.inFlight.clear();
                decidingAttempts = attempts;
                others = round.otherFailures;
            }
            if (!others.isEmpty()) {
                if (earlier == null) {
                    earlier = new ArrayList<>(config.maxAttempts());
                }
                earlier.addAll(others);
            }
            settle(decidingAttempts, flight.number != round.first, round.started, value, failure, flight);
        }

        private CompletableFuture<T> startAttempt(int attempt) {
            try (TraceScope scope = TraceContextHolder.open(outer.withAttempt(attempt))) {
                if (attemptGuard == null) {
                    return work.call().toCompletableFuture();
                }
                return attemptGuard.callAsync(work).exceptionallyCompose(failure -> {
                    Throwable cause = Causes.unwrapAsync(failure);
                    Deadline deadline = outer.deadline();
                    if (cause instanceof DeadlineExceededException ex && (deadline == null || !deadline.isExpired())) {
                        return CompletableFuture.failedFuture(new AttemptTimeoutException(operation, attempt,
                                config.attemptTimeout(), ex.getCause()));
                    }
                    return CompletableFuture.failedFuture(cause);
                });
            } catch (Throwable ex) {
                return CompletableFuture.failedFuture(ex);
            }
        }

        /**
         * Decides after a round: {@code attempt} is the number of attempts started so far,
         * {@code decisive} the flight whose outcome decided (null without hedging).
         */
        private void settle(int attempt, boolean hedgeDecided, long started, @Nullable T value,
                @Nullable Throwable failure, @Nullable AsyncFlight<T> decisive) {
            RandomGenerator rnd = random != null ? random : ThreadLocalRandom.current();
            Decision decision = decide(attempt, failure, value, previousDelay, started, outer.deadline(), rnd);
            if (decision == Decision.ACCEPT) {
                int winner = decisive != null ? decisive.number : attempt;
                if (hedgeDecided) {
                    observer.onHedgeWon(operation, winner);
                }
                observer.onComplete(operation, winner == 1 ? RetryOutcome.SUCCESS_WITHOUT_RETRY
                        : RetryOutcome.SUCCESS_WITH_RETRY, attempt, time.nanoTime() - callStarted);
                result.complete(value);
                return;
            }
            if (decision.stop() != null) {
                if (failure == null) {
                    observer.onComplete(operation, outcome(attempt, decision.stop()), attempt,
                            time.nanoTime() - callStarted);
                    result.complete(value);
                } else {
                    result.completeExceptionally(finish(failure, earlier, attempt, hedges, decision.stop(),
                            decision.reason(), callStarted, outer));
                }
                return;
            }
            if (failure != null) {
                if (earlier == null) {
                    earlier = new ArrayList<>(config.maxAttempts());
                }
                earlier.add(failure);
            }
            observer.onRetry(operation, attempt + 1, failure, decision.delay());
            previousDelay = decision.delay();
            // the wait is a scheduled task, not a parked thread; TTL carries the MDC and other TTL values
            CompletableFuture.delayedExecutor(decision.delay(), TimeUnit.NANOSECONDS)
                    .execute(TtlRunnable.get(() -> attempt(attempt + 1)));
        }
    }

    /** One round of a hedged asynchronous call; guarded by itself. */
    private static final class AsyncRound<T> {

        final int first;

        final long started;

        final List<AsyncFlight<T>> inFlight = new ArrayList<>(2);

        final List<Throwable> otherFailures = new ArrayList<>(1);

        int hedges;

        boolean over;

        @Nullable AsyncFlight<T> primary;

        AsyncRound(int first, long started) {
            this.first = first;
            this.started = started;
        }
    }

    /** One attempt of a hedged asynchronous round. */
    private static final class AsyncFlight<T> {

        final int number;

        final long started;

        @Nullable CompletableFuture<T> stage;

        AsyncFlight(int number, long started) {
            this.number = number;
            this.started = started;
        }
    }

    /**
     * One round of a hedged call: a first attempt, and up to {@code maxHedges} parallel ones
     * started each time the round has waited the hedge delay, all on the runtime's executor. The
     * calling thread only waits and decides; it returns on the first acceptable outcome (cancelling
     * the others), on a failure that is not retryable (likewise), or when every attempt failed.
     * Only the calling thread touches the fields; workers hand their outcomes over the queue.
     */
    private final class HedgedRound<T> {

        private final CheckedCallable<T> work;

        private final TraceContext outer;

        private final @Nullable Deadline deadline;

        private final BlockingQueue<Finished<T>> finished = new LinkedBlockingQueue<>();

        private final List<Flight> inFlight = new ArrayList<>(2);

        /** Attempts of the whole call started so far, this round's included. */
        int attempts;

        /** Hedges this round started. */
        int hedges;

        /** The number of this round's first attempt. */
        final int first;

        /** The attempt whose outcome decides the round. */
        int decisive;

        @Nullable T result;

        @Nullable Throwable failure;

        /** Set when the calling thread was interrupted while waiting. */
        @Nullable InterruptedException interrupted;

        private @Nullable List<Throwable> otherFailures;

        HedgedRound(CheckedCallable<T> work, TraceContext outer, @Nullable Deadline deadline, int attemptsBefore) {
            this.work = work;
            this.outer = outer;
            this.deadline = deadline;
            this.attempts = attemptsBefore;
            this.first = attemptsBefore + 1;
        }

        void run(long roundStarted) {
            HedgePolicy policy = config.hedge();
            Flight primary = start(first);
            attempts = first;
            if (primary == null) {
                // executor saturated: the caller runs this round's attempt itself, unhedged
                decisive = first;
                try {
                    result = runAttempt(work, outer, first);
                } catch (Throwable error) {
                    failure = error;
                }
                return;
            }
            long delay = policy.delayNanos(latency);
            long nextHedge = roundStarted + delay;
            boolean mayHedge = true;
            try {
                for (;;) {
                    Finished<T> done;
                    if (mayHedge && hedges < policy.maxHedges() && attempts < config.maxAttempts()) {
                        long wait = nextHedge - time.nanoTime();
                        done = wait > 0 ? finished.poll(wait, TimeUnit.NANOSECONDS) : finished.poll();
                        if (done == null) {
                            mayHedge = startHedge(delay, time.nanoTime() - roundStarted);
                            nextHedge = time.nanoTime() + delay;
                            continue;
                        }
                    } else {
                        done = finished.take();
                    }
                    inFlight.remove(done.flight);
                    boolean accepted = isAcceptable(done.failure, done.result);
                    boolean unretryable = done.failure != null && !isRetryable(done.failure);
                    if (accepted || unretryable || inFlight.isEmpty()) {
                        if (accepted) {
                            recordLatency(primary, done);
                        }
                        decisive = done.flight.number;
                        result = done.result;
                        failure = done.failure;
                        cancelInFlight();
                        return;
                    }
                    // retryable, or a result asking for a retry, while others still run: wait for them
                    if (done.failure != null) {
                        if (otherFailures == null) {
                            otherFailures = new ArrayList<>(2);
                        }
                        otherFailures.add(done.failure);
                    }
                }
            } catch (InterruptedException ex) {
                cancelInFlight();
                Thread.currentThread().interrupt();
                interrupted = ex;
            }
        }

        /**
         * Starts a hedge unless the deadline is too close for an attempt of the expected length
         * (the hedge delay, or the minimum attempt time), the budget refuses a token, or the
         * executor is saturated; returns whether one started.
         */
        private boolean startHedge(long delay, long waited) {
            if (deadline != null && deadline.remainingNanos() < Math.max(config.minAttemptTime().toNanos(), delay)) {
                return false;
            }
            // a hedge is an extra call to the downstream like a retry: a sick one must not see it doubled
            if (!config.budget().tryAcquireRetry()) {
                return false;
            }
            if (start(attempts + 1) == null) {
                return false;
            }
            attempts++;
            hedges++;
            observer.onHedge(operation, attempts, waited);
            return true;
        }

        private @Nullable Flight start(int number) {
            Flight flight = new Flight(number, time.nanoTime());
            try {
                flight.future = hedgeRuntime.offload(() -> {
                    T value = null;
                    Throwable error = null;
                    try {
                        value = runAttempt(work, outer, number);
                    } catch (Throwable ex) {
                        error = ex;
                    }
                    finished.add(new Finished<>(flight, value, error, time.nanoTime()));
                    return null;
                });
            } catch (RejectedExecutionException ex) {
                return null;
            }
            inFlight.add(flight);
            return flight;
        }

        /**
         * Feeds the percentile: the first attempt's duration when it won, or how long it had run when
         * a hedge won. The latter is a lower bound, and enough: it lies above the hedge delay, so it
         * keeps the slow calls in the tail that the hedges hide from view.
         */
        private void recordLatency(Flight primary, Finished<T> winner) {
            if (latency == null) {
                return;
            }
            if (winner.flight == primary) {
                latency.record(winner.endedNanos - primary.startedNanos);
            } else if (inFlight.contains(primary)) {
                latency.record(time.nanoTime() - primary.startedNanos);
            }
        }

        private void cancelInFlight() {
            for (Flight flight : inFlight) {
                Future<?> future = flight.future;
                if (future != null) {
                    future.cancel(true);
                }
            }
            inFlight.clear();
        }

        @Nullable List<Throwable> addOtherFailuresTo(@Nullable List<Throwable> earlier) {
            if (otherFailures == null) {
                return earlier;
            }
            List<Throwable> all = earlier != null ? earlier : new ArrayList<>(config.maxAttempts());
            all.addAll(otherFailures);
            return all;
        }
    }

    /** One attempt of a hedged round on its way. */
    private static final class Flight {

        final int number;

        final long startedNanos;

        volatile @Nullable Future<?> future;

        Flight(int number, long startedNanos) {
            this.number = number;
            this.startedNanos = startedNanos;
        }
    }

    /** How one attempt of a hedged round ended. */
    private record Finished<T>(Flight flight, @Nullable T result, @Nullable Throwable failure, long endedNanos) {
    }

    /**
     * What follows an attempt, the one decision both the blocking and the asynchronous loops take:
     * accept the outcome, stop for a reason, or retry after a delay.
     */
    private Decision decide(int attempt, @Nullable Throwable failure, @Nullable Object result, long previousDelay,
            long started, @Nullable Deadline deadline, RandomGenerator rnd) {
        if (isAcceptable(failure, result)) {
            return Decision.ACCEPT;
        }
        if (failure != null && !isRetryable(failure)) {
            return new Decision(Stop.NOT_RETRYABLE, 0, whyNotRetryable(failure));
        }
        if (attempt >= config.maxAttempts()) {
            return Decision.stop(Stop.EXHAUSTED);
        }
        long delay = delayBefore(attempt, failure, previousDelay, rnd);
        if (deadline != null && saturatedAdd(delay, Math.max(config.minAttemptTime().toNanos(),
                time.nanoTime() - started)) >= deadline.remainingNanos()) {
            return Decision.stop(Stop.NO_TIME);
        }
        if (!config.budget().tryAcquireRetry()) {
            return Decision.stop(Stop.BUDGET_DENIED);
        }
        return new Decision(null, delay, null);
    }

    /**
     * Accept ({@link #ACCEPT}), stop (a reason, and for an unretryable failure the rule that
     * decided) or retry after {@code delay} nanoseconds.
     */
    private record Decision(@Nullable Stop stop, long delay, @Nullable String why) {

        static final Decision ACCEPT = new Decision(null, -1, null);

        static Decision stop(Stop stop) {
            return new Decision(stop, 0, null);
        }

        String reason() {
            return why == null ? stop.reason : stop.reason + ": " + why;
        }
    }

    private boolean isAcceptable(@Nullable Throwable failure, @Nullable Object result) {
        return failure == null && (config.retryOnResult() == null || !config.retryOnResult().test(result));
    }

    private boolean isRetryable(Throwable failure) {
        return config.classifier().isRetryable(failure)
                && (!config.onlyUnsentFailures() || RetryClassifier.isRequestNotSent(failure));
    }

    private String whyNotRetryable(Throwable failure) {
        if (config.classifier().isRetryable(failure)) {
            // transient, but this operation may only repeat what never reached the other side
            return failure.getClass().getSimpleName() + " may have reached the other side, and the operation is "
                    + "not declared idempotent (rule R-1)";
        }
        return config.classifier().explain(failure);
    }

    private long delayBefore(int failedAttempts, @Nullable Throwable failure, long previousDelay, RandomGenerator rnd) {
        java.time.Duration requested = failure != null ? config.classifier().retryAfter(failure) : null;
        if (requested != null) {
            // the server said when; jittering it would either hammer early or wait needlessly
            return requested.toNanos();
        }
        BackOff backOff = config.backOff();
        return Math.max(0, config.jitter().apply(backOff.delayNanos(failedAttempts, rnd), previousDelay, backOff, rnd));
    }

    /** The context the attempts share: with a fresh record of failed targets when a balancer uses it. */
    private TraceContext scopeOf(TraceContext current) {
        return config.avoidFailedTargets() ? current.withFailedTargets(new FailedTargets()) : current;
    }

    private <T> T runAttempt(CheckedCallable<T> work, TraceContext outer, int attempt) throws Throwable {
        try (TraceScope scope = TraceContextHolder.open(outer.withAttempt(attempt))) {
            if (attemptGuard == null) {
                return work.call();
            }
            try {
                return attemptGuard.call(work);
            } catch (DeadlineExceededException ex) {
                Deadline deadline = outer.deadline();
                if (deadline != null && deadline.isExpired()) {
                    throw ex;
                }
                throw new AttemptTimeoutException(operation, attempt, config.attemptTimeout(), ex.getCause());
            }
        }
    }

    private Throwable finish(Throwable error, @Nullable List<Throwable> earlier, int attempts, int hedges, Stop stop,
            String stopReason, long callStarted, TraceContext outer) {
        FailedTargets failedTargets = outer.failedTargets();
        String reason = failedTargets == null || failedTargets.snapshot().isEmpty() ? stopReason
                : stopReason + "; instances that failed were avoided (rule R-5): " + failedTargets.snapshot();
        if (earlier != null) {
            int attached = 0;
            for (Throwable previous : earlier) {
                if (previous != error && attached < MAX_SUPPRESSED) {
                    error.addSuppressed(previous);
                    attached++;
                }
            }
        }
        RetryOutcome outcome = outcome(attempts, stop);
        error.addSuppressed(new RetrySummary(operation, attempts, hedges, outcome, reason));
        if (stop != Stop.NOT_RETRYABLE || attempts > 1) {
            // R-S1: one line per failed call, with the trace id from the MDC; the error is rethrown
            log.warn("{} failed after {} attempt(s), {}: {}", operation, attempts, reason, error.toString());
        }
        observer.onComplete(operation, outcome, attempts, time.nanoTime() - callStarted);
        return error;
    }

    private static RetryOutcome outcome(int attempts, Stop stop) {
        if (stop == Stop.BUDGET_DENIED) {
            return RetryOutcome.BUDGET_DENIED;
        }
        return attempts > 1 ? RetryOutcome.FAILED_WITH_RETRY : RetryOutcome.FAILED_WITHOUT_RETRY;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** Why the loop stopped. */
    private enum Stop {
        NOT_RETRYABLE("not retried"),
        EXHAUSTED("attempts exhausted (rule R-3)"),
        NO_TIME("no time left in the deadline for another attempt (rule C-1)"),
        BUDGET_DENIED("retry budget exhausted (rule R-6)"),
        INTERRUPTED("interrupted while waiting to retry");

        private final String reason;

        Stop(String reason) {
            this.reason = reason;
        }
    }

    /** Builds a {@link Retrier}. */
    public static final class Builder {

        private final String operation;

        private final RetryConfig config;

        private TimeSource time = TimeSource.SYSTEM;

        private Sleeper sleeper = Sleeper.SYSTEM;

        private @Nullable RandomGenerator random;

        private RetryObserver observer = RetryObserver.NOOP;

        private @Nullable TimeoutRuntime timeoutRuntime;

        private Builder(String operation, RetryConfig config) {
            this.operation = Objects.requireNonNull(operation, "operation");
            this.config = Objects.requireNonNull(config, "config");
        }

        /**
         * The time source for deadline checks.
         *
         * @param value the time
         * @return this builder
         */
        public Builder timeSource(TimeSource value) {
            this.time = Objects.requireNonNull(value);
            return this;
        }

        /**
         * How waits are performed.
         *
         * @param value the sleeper
         * @return this builder
         */
        public Builder sleeper(Sleeper value) {
            this.sleeper = Objects.requireNonNull(value);
            return this;
        }

        /**
         * The random source for back-off and jitter; {@code null} uses {@link ThreadLocalRandom}.
         *
         * @param value the random source
         * @return this builder
         */
        public Builder random(@Nullable RandomGenerator value) {
            this.random = value;
            return this;
        }

        /**
         * Who hears retries and outcomes.
         *
         * @param value the observer
         * @return this builder
         */
        public Builder observer(RetryObserver value) {
            this.observer = Objects.requireNonNull(value);
            return this;
        }

        /**
         * The runtime for per-attempt timeouts; required when the config sets one.
         *
         * @param value the runtime
         * @return this builder
         */
        public Builder timeoutRuntime(@Nullable TimeoutRuntime value) {
            this.timeoutRuntime = value;
            return this;
        }

        /**
         * Builds the retrier.
         *
         * @return the retrier
         */
        public Retrier build() {
            return new Retrier(this);
        }
    }
}
