package io.github.resiliencestarter.timeout;

import com.alibaba.ttl.TtlCallable;
import io.github.resiliencestarter.context.CancelMark;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import io.github.resiliencestarter.timeout.DeadlineExceededException.Reason;
import io.github.resiliencestarter.timeout.internal.InterruptTimer;
import io.github.resiliencestarter.timeout.support.SpinWindow;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs work within a deadline: the programmatic form of {@code @Timeout}.
 *
 * <pre>{@code
 * TimeoutGuard guard = TimeoutGuard.of("inventory.reserve", TimeoutConfig.custom()
 *         .timeout(Duration.ofMillis(800)).build(), runtime);
 * Reservation r = guard.call(() -> inventory.reserve(order));
 * }</pre>
 *
 * <p>The effective deadline is the earlier of the inherited one and now + timeout. When it has
 * already passed, the work is not invoked. While the work runs, the trace context carries the
 * effective deadline, so everything inside (retries, outbound calls) sees the smaller budget.
 * Instances are thread-safe; their settings are immutable, and the one thing a guard learns is a
 * hint (how long an {@code OFFLOAD} caller looks for its result before it parks).
 */
public final class TimeoutGuard {

    private static final Logger log = LoggerFactory.getLogger(TimeoutGuard.class);

    /** What an OFFLOAD caller leaves for a worker that has not started when it gives up. */
    private static final Object CANCELLED = new Object();

    private final String operation;

    private final TimeoutConfig config;

    private final TimeoutRuntime runtime;

    /**
     * How long an OFFLOAD caller looks for its result before it parks: a hint learnt per guard;
     * none for an INTERRUPT guard, which never offloads (the outbound HTTP interceptor makes one
     * per call).
     */
    private final @Nullable SpinWindow resultWait;

    private TimeoutGuard(String operation, TimeoutConfig config, TimeoutRuntime runtime) {
        this.operation = Objects.requireNonNull(operation, "operation");
        this.config = Objects.requireNonNull(config, "config");
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.resultWait = config.mode() == TimeoutMode.INTERRUPT ? null : new SpinWindow();
    }

    /**
     * Creates a guard.
     *
     * @param operation a name for error messages, for example {@code OrderController.create}
     * @param config the timeout settings
     * @param runtime the shared executor and timer
     * @return the guard
     */
    public static TimeoutGuard of(String operation, TimeoutConfig config, TimeoutRuntime runtime) {
        return new TimeoutGuard(operation, config, runtime);
    }

    /**
     * The settings this guard applies.
     *
     * @return the settings
     */
    public TimeoutConfig config() {
        return config;
    }

    /**
     * Runs {@code work} within the deadline.
     *
     * @param work the work
     * @param <T> the result type
     * @return what the work returned
     * @throws DeadlineExceededException when the deadline passed before or during the work
     * @throws TimeoutRejectedException when OFFLOAD found the executor saturated
     * @throws Throwable whatever the work threw, unchanged
     */
    public <T extends @Nullable Object> T call(CheckedCallable<T> work) throws Throwable {
        if (observes()) {
            return observed(work);
        }
        TimeoutObserver observer = runtime.observer();
        // clock reads cost ~20 ns each: one reading starts the duration, the local limit and the time left
        long started = runtime.time().nanoTime();
        TraceContext inner = innerContext(started);
        Deadline effective = deadlineOf(inner);
        long remaining = effective.remainingNanosAt(started, runtime.time());
        if (remaining <= 0) {
            observer.onOutcome(operation, TimeoutOutcome.BUDGET_SPENT, 0);
            throw DeadlineExceededException.budgetSpent(operation);
        }
        TimeoutOutcome outcome = TimeoutOutcome.SUCCESS;
        try {
            return config.mode() == TimeoutMode.INTERRUPT ? interrupting(work, inner, effective, started, remaining)
                    : offloaded(work, inner, effective);
        } catch (DeadlineExceededException ex) {
            // ours, or an inner one on the same deadline; an inner, shorter limit is the inner's business
            outcome = effective.isExpired() ? TimeoutOutcome.TIMEOUT : TimeoutOutcome.SUCCESS;
            throw ex;
        } catch (TimeoutRejectedException ex) {
            outcome = TimeoutOutcome.REJECTED;
            throw ex;
        } finally {
            if (observer != TimeoutObserver.NOOP) {
                observer.onOutcome(operation, outcome, runtime.time().nanoTime() - started);
            }
        }
    }

    /**
     * Bounds the completion of asynchronous work by the deadline. {@code work} builds the result on
     * the calling thread, inside the narrowed trace context; the returned future completes with the
     * work's outcome, or fails with {@link DeadlineExceededException} at the deadline, when the
     * work's own future is cancelled ({@code cancel(true)}: a {@code FutureTask} is interrupted, a
     * plain {@code CompletableFuture} only stops its dependants). The mode does not apply: nothing
     * is offloaded and no thread waits.
     *
     * @param work builds the asynchronous result
     * @param <T> the result type
     * @return the bounded result
     */
    public <T> CompletableFuture<T> callAsync(CheckedCallable<? extends CompletionStage<T>> work) {
        if (observes()) {
            return observedAsync(work);
        }
        long started = runtime.time().nanoTime();
        TraceContext inner = innerContext();
        Deadline effective = deadlineOf(inner);
        if (effective.isExpired()) {
            runtime.observer().onOutcome(operation, TimeoutOutcome.BUDGET_SPENT, 0);
            return CompletableFuture.failedFuture(DeadlineExceededException.budgetSpent(operation));
        }
        CompletableFuture<T> source;
        try (TraceScope scope = TraceContextHolder.open(inner)) {
            source = work.call().toCompletableFuture();
        } catch (Throwable ex) {
            runtime.observer().onOutcome(operation, TimeoutOutcome.SUCCESS, runtime.time().nanoTime() - started);
            return CompletableFuture.failedFuture(ex);
        }
        CompletableFuture<T> bounded = new CompletableFuture<>();
        // the deadline or the work's own completion, whichever comes first, decides the outcome
        AtomicBoolean decided = new AtomicBoolean();
        ScheduledFuture<?> timer = runtime.asyncTimer().schedule(() -> {
            if (decided.compareAndSet(false, true)) {
                // cancelled before the caller learns of the timeout, so the caller never sees it still running
                source.cancel(true);
                bounded.completeExceptionally(timedOut(null));
                runtime.observer().onOutcome(operation, TimeoutOutcome.TIMEOUT, runtime.time().nanoTime() - started);
            }
        }, effective.remainingNanos(), TimeUnit.NANOSECONDS);
        source.whenComplete((value, failure) -> {
            timer.cancel(false);
            if (!decided.compareAndSet(false, true)) {
                return;
            }
            boolean first = failure == null ? bounded.complete(value)
                    : bounded.completeExceptionally(Causes.unwrapAsync(failure));
            if (first) {
                runtime.observer().onOutcome(operation, TimeoutOutcome.SUCCESS, runtime.time().nanoTime() - started);
            }
        });
        // cancelling the bounded result stops the work too
        bounded.whenComplete((value, failure) -> {
            if (bounded.isCancelled()) {
                timer.cancel(false);
                source.cancel(true);
            }
        });
        return bounded;
    }

    /** Whether this call is only observed: mode OBSERVE, or a trace id outside the rollout's share. */
    private boolean observes() {
        RolloutPolicy rollout = config.rollout();
        return !rollout.enforcesAll() && !rollout.enforces(TraceContextHolder.current());
    }

    /**
     * Runs the work as if there were no timeout (the caller's thread, the caller's context) and
     * counts it when it ran past the deadline it would have had. Two clock readings and no
     * context: observing must cost no more than enforcing.
     */
    private <T extends @Nullable Object> T observed(CheckedCallable<T> work) throws Throwable {
        long started = runtime.time().nanoTime();
        long limit = wouldHaveNanos(started);
        try {
            return work.call();
        } finally {
            observedEnd(limit, started);
        }
    }

    /** {@link #observed} for asynchronous work: the work's own future, untouched, is the result. */
    private <T> CompletableFuture<T> observedAsync(CheckedCallable<? extends CompletionStage<T>> work) {
        long started = runtime.time().nanoTime();
        long limit = wouldHaveNanos(started);
        CompletableFuture<T> source;
        try {
            source = work.call().toCompletableFuture();
        } catch (Throwable ex) {
            observedEnd(limit, started);
            return CompletableFuture.failedFuture(ex);
        }
        source.whenComplete((value, failure) -> observedEnd(limit, started));
        return source;
    }

    /** The time an enforced call starting at {@code now} would have had: its limit, or the caller's shorter budget. */
    private long wouldHaveNanos(long now) {
        long local = config.timeout().toNanos();
        Deadline inherited = config.inheritDeadline() ? TraceContextHolder.current().deadline() : null;
        return inherited == null ? local : Math.min(local, inherited.remainingNanosAt(now, runtime.time()));
    }

    private void observedEnd(long limit, long started) {
        long took = runtime.time().nanoTime() - started;
        TimeoutOutcome outcome = took >= limit ? TimeoutOutcome.WOULD_TIMEOUT : TimeoutOutcome.SUCCESS;
        runtime.observer().onOutcome(operation, outcome, took);
        if (outcome == TimeoutOutcome.WOULD_TIMEOUT && runtime.observed().first(operation, outcome.tag())) {
            log.info("@Timeout {} observes and does not enforce: a call ran past the {} limit and was not cut. Later "
                    + "such calls are counted as resilience.timeout.calls{{outcome={}}} without this line "
                    + "(docs/rollout.md).", operation, config.timeout(), outcome.tag());
        }
    }

    /** The deadline of a context {@link #innerContext()} opened: it always carries one. */
    private static Deadline deadlineOf(TraceContext inner) {
        return Objects.requireNonNull(inner.deadline(), "a guard's inner context has its deadline");
    }

    private TraceContext innerContext() {
        return innerContext(runtime.time().nanoTime());
    }

    private TraceContext innerContext(long now) {
        TraceContext outer = TraceContextHolder.current();
        Deadline local = Deadline.localAfterNanos(now, config.timeout().toNanos(), runtime.time());
        return config.inheritDeadline() ? outer.withDeadline(local) : outer.withoutDeadline().withDeadline(local);
    }

    private <T extends @Nullable Object> T offloaded(CheckedCallable<T> work, TraceContext inner, Deadline effective)
            throws Throwable {
        ContextPropagator.Restorer restorer = runtime.propagator().capture();
        // the worker's ticket once it runs, or CANCELLED once the caller gave up: the caller
        // interrupts through the ticket, so an interrupt reaches only this work, and waits at the
        // end of an uninterruptible section (a claim being settled) instead of breaking it
        AtomicReference<@Nullable Object> worker = new AtomicReference<>();
        // a caller that stops waiting marks the work first: what judges it then knows it was not the downstream
        CancelMark mark = new CancelMark();
        TraceContext marked = inner.withCancelMark(mark);
        Callable<T> task = () -> {
            InterruptTimer.Ticket ticket = InterruptTimer.Ticket.unscheduled(Thread.currentThread());
            if (!worker.compareAndSet(null, ticket)) {
                throw new CancellationException("the caller gave up before the work started");
            }
            try (TraceScope scope = TraceContextHolder.open(marked);
                    ContextPropagator.Restorer.Scope restored = restorer.restore()) {
                return work.call();
            } catch (Exception | Error ex) {
                throw ex;
            } catch (Throwable other) {
                throw new ThrowableCarrier(other);
            } finally {
                ticket.disarm();
            }
        };
        Future<T> future;
        try {
            // TtlCallable also carries the caller's other TTL values and its whole MDC
            future = runtime.executor().submit(TtlCallable.get(task));
        } catch (RejectedExecutionException ex) {
            throw new TimeoutRejectedException(operation, ex);
        }
        try {
            return awaitResult(future, effective);
        } catch (TimeoutException ex) {
            cancel(future, worker);
            throw timedOut(null);
        } catch (ExecutionException ex) {
            Throwable cause = ex.getCause();
            throw cause instanceof ThrowableCarrier carrier ? carrier.getCause() : cause;
        } catch (InterruptedException ex) {
            // the caller itself was interrupted: stop the work too and keep the caller's flag
            mark.mark(CancelMark.Reason.CALLER_GONE);
            cancel(future, worker);
            Thread.currentThread().interrupt();
            throw ex;
        } catch (CancellationException ex) {
            throw timedOut(ex);
        }
    }

    /**
     * The worker's result, looked for a learnt while before the caller parks: work done within a
     * few microseconds is then taken without the park and the wake (issue 49), and work that takes
     * longer soon parks at once.
     */
    private <T extends @Nullable Object> T awaitResult(Future<T> future, Deadline effective)
            throws InterruptedException, ExecutionException, TimeoutException {
        SpinWindow window = Objects.requireNonNull(resultWait, "an INTERRUPT guard offloads nothing");
        long start = System.nanoTime();
        boolean parked = !window.spin(start, effective.remainingNanos(), future::isDone);
        try {
            return future.get(effective.remainingNanos(), TimeUnit.NANOSECONDS);
        } finally {
            window.handedOver(System.nanoTime() - start, parked);
        }
    }

    /** How long the next OFFLOAD caller looks for its result before it parks (for tests). */
    long resultWaitNanos() {
        return resultWait == null ? 0 : resultWait.nanos();
    }

    private static void cancel(Future<?> future, AtomicReference<@Nullable Object> worker) {
        future.cancel(false);
        if (worker.getAndSet(CANCELLED) instanceof InterruptTimer.Ticket running) {
            running.fire();
        }
    }

    private <T extends @Nullable Object> T interrupting(CheckedCallable<T> work, TraceContext inner,
            Deadline effective, long now, long remaining) throws Throwable {
        Thread caller = Thread.currentThread();
        boolean wasInterrupted = caller.isInterrupted();
        // the timer counts in System.nanoTime(): a reading of the system clock is its due time as is
        InterruptTimer.Ticket ticket = runtime.time() == TimeSource.SYSTEM
                ? runtime.timer().armUntil(caller, now + remaining) : runtime.timer().arm(caller, remaining);
        T result;
        try {
            result = TraceContextHolder.callWithin(inner, work);
        } catch (Throwable ex) {
            if (!ticket.disarm()) {
                restoreFlag(wasInterrupted);
                throw timedOut(ex);
            }
            throw ex;
        }
        boolean finishedInTime = ticket.disarm();
        restoreFlag(wasInterrupted);
        if (!finishedInTime || effective.isExpired()) {
            // the work ignored the interrupt or returned late: its result came after the deadline
            throw timedOut(null);
        }
        return result;
    }

    private static void restoreFlag(boolean wasInterrupted) {
        if (wasInterrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private DeadlineExceededException timedOut(@Nullable Throwable cause) {
        return new DeadlineExceededException(operation, Reason.TIMED_OUT, config.timeout(), cause);
    }

    /** Lets a checked {@link Throwable} that is not an {@link Exception} cross {@link Callable}. */
    private static final class ThrowableCarrier extends Exception {

        private static final long serialVersionUID = 1L;

        ThrowableCarrier(Throwable cause) {
            super(cause);
        }
    }
}
