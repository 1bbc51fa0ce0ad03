package io.github.resiliencestarter.circuit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resiliencestarter.circuit.internal.AttemptJudge;
import io.github.resiliencestarter.circuit.internal.OpenCircuitGate;
import io.github.resiliencestarter.circuit.internal.RecoveryRamp;
import io.github.resiliencestarter.circuit.internal.Resilience4jBreakers;
import io.github.resiliencestarter.context.CancelMark;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.Stages;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One circuit breaker: the programmatic form of {@code @CircuitBreaker}.
 *
 * <pre>{@code
 * CircuitGuard inventory = CircuitGuard.of("inventory", CircuitBreakerConfig.ofDefaults());
 * Stock stock = inventory.call(() -> client.stock(sku));
 * }</pre>
 *
 * <p>Each call asks for permission first: an open circuit, half-open with every probe taken, or a
 * ramp that admits only a share of calls refuses it with {@link CircuitOpenException} before the
 * work runs. A call that runs is judged when it ends (see {@link CircuitBreakerConfig} for what
 * counts) and recorded. Inside a retry loop each attempt is one call, and a failure carries the
 * breaker's {@link io.github.resiliencestarter.retry.RetryGate}, so the loop stops at once instead
 * of waiting for an attempt the open circuit would refuse.
 *
 * <p>The state machine (sliding windows, thresholds, half-open probes) is Resilience4j's; this
 * class adds the classification, the deadline rule, the recovery ramp and the time to the next
 * probe. Blocking and asynchronous calls share one admission and one judgement. Thread-safe.
 */
public final class CircuitGuard {

    /** What a refusal asks the client to wait while the probes or the ramp are busy. */
    public static final Duration BUSY_RETRY_AFTER = Duration.ofSeconds(1);

    private final String name;

    private final TimeSource time;

    private final CircuitObserver observer;

    private final OpenCircuitGate gate;

    private volatile Engine engine;

    /** When {@link #acquire} was last asked, in the time source's nanoseconds: an instance's last use. */
    private volatile long lastAcquired;

    private CircuitGuard(String name, CircuitBreakerConfig config, TimeSource time, CircuitObserver observer) {
        this.name = name;
        this.time = time;
        this.observer = observer;
        this.gate = new OpenCircuitGate(name, this::refusal);
        this.engine = newEngine(config);
        this.lastAcquired = time.nanoTime();
    }

    /**
     * A guard on the system clock, heard by no one.
     *
     * @param name the breaker's name, for logs, metrics and the refusal
     * @param config the settings
     * @return the guard, closed
     */
    public static CircuitGuard of(String name, CircuitBreakerConfig config) {
        return builder(name, config).build();
    }

    /**
     * A builder, for a time source or an observer.
     *
     * @param name the breaker's name
     * @param config the settings
     * @return a new builder
     */
    public static Builder builder(String name, CircuitBreakerConfig config) {
        return new Builder(name, config);
    }

    /**
     * The breaker's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The settings in force.
     *
     * @return the settings
     */
    public CircuitBreakerConfig config() {
        return engine.config;
    }

    /**
     * Runs {@code work} through the breaker.
     *
     * @param work the work
     * @param <T> the result type
     * @return its result
     * @throws CircuitOpenException when the breaker refused the call (the work did not run)
     * @throws Throwable the work's failure, unchanged
     */
    public <T extends @Nullable Object> T call(CheckedCallable<T> work) throws Throwable {
        Engine current = engine;
        long started = admit(current);
        T result;
        try {
            result = work.call();
        } catch (Throwable failure) {
            TraceContext context = TraceContextHolder.current();
            throw failed(current, started, failure, context.deadline(), stoppedHere(context.cancelMark()), true);
        }
        succeeded(current, started);
        return result;
    }

    /**
     * Runs asynchronous work through the breaker: admitted when it starts, judged when its result
     * completes. Cancelling the returned future cancels the work's.
     *
     * @param work starts the work
     * @param <T> the result type
     * @return its result, or a failed future with {@link CircuitOpenException} when refused
     */
    public <T> CompletableFuture<T> callAsync(CheckedCallable<? extends CompletionStage<T>> work) {
        Engine current = engine;
        long started;
        try {
            started = admit(current);
        } catch (CircuitOpenException refused) {
            return CompletableFuture.failedFuture(refused);
        }
        TraceContext context = TraceContextHolder.current();
        Deadline deadline = context.deadline();
        CancelMark mark = context.cancelMark();
        CompletableFuture<T> stage;
        try {
            stage = work.call().toCompletableFuture();
        } catch (Throwable failure) {
            return CompletableFuture.failedFuture(failed(current, started, failure, deadline, stoppedHere(mark), true));
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            if (failure == null) {
                succeeded(current, started);
                result.complete(value);
            } else {
                // a caller above cancelled this call's own future before its cancel reached the work
                boolean stopped = result.isCancelled() || stoppedHere(mark);
                result.completeExceptionally(
                        failed(current, started, Causes.unwrapAsync(failure), deadline, stopped, true));
            }
        });
        return Stages.cancelling(result, stage);
    }

    /**
     * Admits one call whose outcome is reported later, elsewhere, on the returned permit. Its
     * failure carries no retry gate: a caller that admits calls this way (a load balancer, per
     * instance) has somewhere else to send the retry.
     *
     * @param applyRamp whether the recovery ramp may refuse the call; {@code false} when the
     *     caller applies the ramp's share itself (a balancer offering the instance less often)
     * @return the permit
     * @throws CircuitOpenException when the breaker refuses the call
     */
    public CircuitPermit acquire(boolean applyRamp) {
        Engine current = engine;
        lastAcquired = time.nanoTime();
        long started = applyRamp ? admit(current) : permit(current);
        TraceContext context = TraceContextHolder.current();
        Deadline deadline = context.deadline();
        CancelMark mark = context.cancelMark();
        return new CircuitPermit(() -> succeeded(current, started),
                failure -> failed(current, started, failure, deadline, stoppedHere(mark), false),
                () -> {
                    current.breaker.releasePermission();
                    notice(current);
                    observer.onCall(name, CircuitOutcome.IGNORED);
                });
    }

    /**
     * How long since a call last asked this breaker for a permit through {@link #acquire} (or since
     * it was made): how a breaker per instance tells that its instance is gone.
     *
     * @return the time, in nanoseconds
     */
    public long nanosSinceAcquired() {
        return time.nanoTime() - lastAcquired;
    }

    /**
     * The breaker's state now.
     *
     * @return the state; {@link CircuitState#RAMPING} while a closed circuit still ramps up
     */
    public CircuitState state() {
        return stateOf(engine);
    }

    /**
     * How long until the breaker lets a call through again.
     *
     * @return zero while it does; the rest of the open wait while open
     */
    public Duration untilProbe() {
        return untilProbe(engine);
    }

    /**
     * The state and counts now.
     *
     * @return a snapshot
     */
    public CircuitSnapshot snapshot() {
        Engine current = engine;
        CircuitBreaker.Metrics metrics = current.breaker.getMetrics();
        return new CircuitSnapshot(name, stateOf(current), metrics.getFailureRate(), metrics.getSlowCallRate(),
                metrics.getNumberOfBufferedCalls(), metrics.getNumberOfFailedCalls(), metrics.getNumberOfSlowCalls(),
                untilProbe(current), current.ramp.share(time.nanoTime()), current.config);
    }

    /**
     * Puts new settings in force (live tuning). Equal settings change nothing; different ones start
     * the window afresh: an open circuit stays open until its probe time, a half-open one lets the
     * next call probe, a ramp starts again.
     *
     * @param next the new settings
     */
    public synchronized void reconfigure(CircuitBreakerConfig next) {
        Engine old = engine;
        if (old.config.equals(next)) {
            return; // unchanged: the window keeps its counts
        }
        Engine fresh = new Engine(next, Resilience4jBreakers.create(name, next, time),
                new RecoveryRamp(next.warmUp().toNanos(), next.warmUpStartPercent() / 100));
        // both engines' locks: a transition of either is told wholly before this one or not at all
        synchronized (old) {
            synchronized (fresh) {
                replace(old, fresh);
            }
        }
    }

    private void replace(Engine old, Engine fresh) {
        CircuitState was = stateOf(old);
        long now = time.nanoTime();
        switch (was) {
            case OPEN, HALF_OPEN -> {
                long rest = was == CircuitState.OPEN ? Math.max(0, old.probeAt - now) : 0;
                fresh.probeAt = now + rest;
                fresh.breaker.transitionToOpenStateUntil(Instant.ofEpochMilli(time.epochMillis()
                        + TimeUnit.NANOSECONDS.toMillis(rest)));
            }
            case FORCED_OPEN -> fresh.breaker.transitionToForcedOpenState();
            case DISABLED -> fresh.breaker.transitionToDisabledState();
            case RAMPING -> fresh.ramp.start(now);
            default -> {
            }
        }
        fresh.seen = fresh.breaker.getState();
        engine = fresh;
        CircuitState after = stateOf(fresh);
        if (after != was) {
            observer.onStateChange(name, was, after);
        }
    }

    private Engine newEngine(CircuitBreakerConfig config) {
        return new Engine(config, Resilience4jBreakers.create(name, config, time),
                new RecoveryRamp(config.warmUp().toNanos(), config.warmUpStartPercent() / 100));
    }

    /**
     * Notices a change of Resilience4j's state after a call of it that may have caused one. Read
     * rather than subscribed to: a subscriber to its events makes it build an event object, with a
     * wall-clock time stamp, for every call recorded.
     */
    private void notice(Engine current) {
        CircuitBreaker.State now = current.breaker.getState();
        if (now != current.seen) {
            transitioned(current, now);
        }
    }

    private void transitioned(Engine target, CircuitBreaker.State now) {
        synchronized (target) {
            CircuitBreaker.State before = target.seen;
            if (before == now) {
                return; // another thread noticed it first
            }
            target.seen = now;
            boolean wasRamping = target.ramp.active();
            CircuitState from = Resilience4jBreakers.stateOf(before);
            CircuitState to = Resilience4jBreakers.stateOf(now);
            if (to == CircuitState.HALF_OPEN) {
                target.halfOpenAt = time.nanoTime();
            } else if (to == CircuitState.OPEN || to == CircuitState.FORCED_OPEN) {
                target.probeAt = time.nanoTime() + target.config.waitInOpenState().toNanos();
                target.ramp.stop();
            } else if (to == CircuitState.CLOSED && (from == CircuitState.HALF_OPEN || from == CircuitState.OPEN)
                    && target.ramp.start(time.nanoTime())) {
                // from OPEN too: the half-open step may have come and gone between two readings
                to = CircuitState.RAMPING;
            }
            if (from == CircuitState.CLOSED && wasRamping) {
                from = CircuitState.RAMPING;
            }
            // told under the lock, so observers hear transitions in the order they happened (a
            // state gauge set by each would otherwise be left on a state already left)
            if (engine == target) {
                observer.onStateChange(name, from, to);
            } // else: a call that began before a reconfiguration ended on the engine it replaced
        }
    }

    /** Admission: the ramp first (cheap when it is over), then Resilience4j's permission. */
    private long admit(Engine current) {
        RecoveryRamp ramp = current.ramp;
        if (ramp.active() && rampRefuses(current)) {
            observer.onCall(name, CircuitOutcome.RAMP_REJECTED);
            throw new CircuitOpenException(name, CircuitState.RAMPING, BUSY_RETRY_AFTER);
        }
        return permit(current);
    }

    /**
     * A circuit half-open for longer than its limit opens again: probes that never end (nothing
     * times them out) must not hold it half-open, refusing every other call, for good. Asked at
     * admission, on the guard's time source: no timer thread.
     */
    private void reopenWhenProbesOutstay(Engine current) {
        long limit = current.config.maxWaitInHalfOpenState().toNanos();
        if (limit <= 0) {
            return;
        }
        synchronized (current) {
            if (current.seen == CircuitBreaker.State.HALF_OPEN && time.nanoTime() - current.halfOpenAt >= limit
                    && current.breaker.getState() == CircuitBreaker.State.HALF_OPEN) {
                current.breaker.transitionToOpenState();
            }
        }
        notice(current);
    }

    /**
     * The ramp's admission, under the engine's lock while the ramp runs: its end is a transition,
     * told in order with the others.
     */
    private boolean rampRefuses(Engine current) {
        synchronized (current) {
            RecoveryRamp.Admission admission = current.ramp.admit(time.nanoTime());
            if (admission == RecoveryRamp.Admission.FINISHED && engine == current) {
                observer.onStateChange(name, CircuitState.RAMPING, CircuitState.CLOSED);
            }
            return admission == RecoveryRamp.Admission.REJECTED;
        }
    }

    /** Resilience4j's permission alone: refused when open, or half-open with every probe taken. */
    private long permit(Engine current) {
        if (current.seen == CircuitBreaker.State.HALF_OPEN) {
            reopenWhenProbesOutstay(current);
        }
        boolean permitted = current.breaker.tryAcquirePermission();
        notice(current); // open → half-open happens here
        if (!permitted) {
            observer.onCall(name, CircuitOutcome.NOT_PERMITTED);
            throw new CircuitOpenException(name, stateOf(current), untilProbe(current));
        }
        return time.nanoTime();
    }

    private void succeeded(Engine current, long started) {
        long elapsed = time.nanoTime() - started;
        current.breaker.onSuccess(elapsed, TimeUnit.NANOSECONDS);
        notice(current);
        observer.onCall(name, elapsed >= current.config.slowCallDuration().toNanos() ? CircuitOutcome.SLOW
                : CircuitOutcome.SUCCESS);
    }

    /** Whether someone on this side stopped the call, by the mark its context carries. */
    private static boolean stoppedHere(@Nullable CancelMark mark) {
        return mark != null && mark.isMarked();
    }

    private Throwable failed(Engine current, long started, Throwable failure, @Nullable Deadline deadline,
            boolean stoppedHere, boolean attachGate) {
        long elapsed = time.nanoTime() - started;
        switch (AttemptJudge.judge(current.config, failure, elapsed, deadline, stoppedHere)) {
            case FAILURE -> {
                current.breaker.onError(elapsed, TimeUnit.NANOSECONDS, failure);
                observer.onCall(name, CircuitOutcome.FAILURE);
            }
            case SUCCESS -> {
                current.breaker.onSuccess(elapsed, TimeUnit.NANOSECONDS);
                observer.onCall(name, elapsed >= current.config.slowCallDuration().toNanos() ? CircuitOutcome.SLOW
                        : CircuitOutcome.SUCCESS);
            }
            default -> {
                current.breaker.releasePermission();
                observer.onCall(name, CircuitOutcome.IGNORED);
            }
        }
        notice(current);
        if (attachGate && !(failure instanceof CircuitOpenException)) {
            gate.attachTo(failure);
        }
        return failure;
    }

    /** What the retry loop hears before it would wait for another attempt. */
    private @Nullable String refusal() {
        Engine current = engine;
        CircuitState state = stateOf(current);
        if (state == CircuitState.FORCED_OPEN || (state == CircuitState.OPEN && current.probeAt - time.nanoTime() > 0)) {
            return "circuit breaker '" + name + "' is open, next probe in " + untilProbe(current).toMillis() + " ms";
        }
        return null;
    }

    private CircuitState stateOf(Engine current) {
        notice(current); // a change made by Resilience4j's own timer (max-wait-in-half-open-state)
        CircuitState state = Resilience4jBreakers.stateOf(current.breaker.getState());
        return state == CircuitState.CLOSED && current.ramp.active() && current.ramp.runningAt(time.nanoTime())
                ? CircuitState.RAMPING : state;
    }

    private Duration untilProbe(Engine current) {
        return switch (stateOf(current)) {
            case OPEN -> Duration.ofNanos(Math.max(0, current.probeAt - time.nanoTime()));
            case FORCED_OPEN -> current.config.waitInOpenState();
            case HALF_OPEN -> BUSY_RETRY_AFTER;
            default -> Duration.ZERO;
        };
    }

    /** The parts that live tuning replaces together: settings, state machine, ramp, probe time. */
    private static final class Engine {

        final CircuitBreakerConfig config;

        final CircuitBreaker breaker;

        final RecoveryRamp ramp;

        /** When an open circuit lets its first probe through, in the time source's nanoseconds. */
        volatile long probeAt;

        /** When the circuit last went half-open, in the time source's nanoseconds. */
        volatile long halfOpenAt;

        /** Resilience4j's state as last noticed; changed under the engine's lock. */
        volatile CircuitBreaker.State seen;

        Engine(CircuitBreakerConfig config, CircuitBreaker breaker, RecoveryRamp ramp) {
            this.config = config;
            this.breaker = breaker;
            this.ramp = ramp;
            this.seen = breaker.getState();
        }
    }

    /** Builds a {@link CircuitGuard}. */
    public static final class Builder {

        private final String name;

        private final CircuitBreakerConfig config;

        private TimeSource time = TimeSource.SYSTEM;

        private CircuitObserver observer = CircuitObserver.NOOP;

        private Builder(String name, CircuitBreakerConfig config) {
            this.name = Objects.requireNonNull(name, "name");
            this.config = Objects.requireNonNull(config, "config");
        }

        /**
         * The clock of the open wait, the ramp and the call durations.
         *
         * @param value the time source
         * @return this builder
         */
        public Builder timeSource(TimeSource value) {
            this.time = Objects.requireNonNull(value);
            return this;
        }

        /**
         * Who hears calls and state changes.
         *
         * @param value the observer
         * @return this builder
         */
        public Builder observer(CircuitObserver value) {
            this.observer = Objects.requireNonNull(value);
            return this;
        }

        /**
         * Builds the guard.
         *
         * @return the guard, closed
         */
        public CircuitGuard build() {
            return new CircuitGuard(name, config, time, observer);
        }
    }
}
