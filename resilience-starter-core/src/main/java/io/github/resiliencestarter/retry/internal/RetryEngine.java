package io.github.resiliencestarter.retry.internal;

import io.github.resiliencestarter.context.CancelMark;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.FailedTargets;
import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.core.DurationEstimate;
import io.github.resiliencestarter.retry.AttemptTimeoutException;
import io.github.resiliencestarter.retry.AttemptTracing;
import io.github.resiliencestarter.retry.HedgePolicy;
import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryObserver;
import io.github.resiliencestarter.retry.RetryOutcome;
import io.github.resiliencestarter.retry.RetrySummary;
import io.github.resiliencestarter.retry.Sleeper;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutGuard;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every execution of one retrier shares, immutable: its settings, its decision, its clock,
 * sleeper, random source and observer, the per-attempt timeout and the hedging runtime; and the
 * steps both drivers take the same way (running one attempt, ending a failed call). The state of
 * one call lives in its driver ({@link BlockingRetry}, {@link AsyncRetry}).
 */
public final class RetryEngine {

    /** Earlier errors attached to the final one at most; keeps huge attempt counts from bloating it. */
    public static final int MAX_SUPPRESSED = 10;

    /** Under the public name users configure logging for. */
    private static final Logger log = LoggerFactory.getLogger(Retrier.class);

    final String operation;

    final RetryConfig config;

    final TimeSource time;

    final Sleeper sleeper;

    final RetryObserver observer;

    final RetryDecider decider;

    /** Every call enforces (the default rollout): no trace id to look at per call. */
    private final boolean enforcesAll;

    private final @Nullable TimeoutGuard attemptGuard;

    /** Runs the attempts of a hedged call side by side; {@code null} when the config does not hedge. */
    private final @Nullable TimeoutRuntime hedgeRuntime;

    private final AttemptTracing attemptTracing;

    /** Carries thread-bound state (an observation, a security context) to delayed attempts and hedges. */
    private final ContextPropagator propagator;

    /** The operation's latency percentile, when hedges follow it. */
    final @Nullable DurationEstimate latency;

    /**
     * Creates the engine of one retrier.
     *
     * @param operation a name for logs and metrics
     * @param config the settings
     * @param time the time source
     * @param sleeper how waits are performed
     * @param random the random source, or {@code null} for {@link ThreadLocalRandom}
     * @param observer who hears retries and outcomes
     * @param timeoutRuntime the runtime of per-attempt timeouts and hedges; required when the
     *     config sets either
     * @param attemptTracing gives each attempt its span
     */
    public RetryEngine(String operation, RetryConfig config, TimeSource time, Sleeper sleeper,
            @Nullable RandomGenerator random, RetryObserver observer, @Nullable TimeoutRuntime timeoutRuntime,
            AttemptTracing attemptTracing) {
        this.operation = operation;
        this.attemptTracing = attemptTracing;
        this.config = config;
        this.time = time;
        this.sleeper = sleeper;
        this.enforcesAll = config.rollout().enforcesAll();
        this.observer = observer;
        this.decider = new RetryDecider(config, time, random);
        if (config.attemptTimeout() != null) {
            if (timeoutRuntime == null) {
                throw new IllegalStateException("attemptTimeout on " + operation + " needs a TimeoutRuntime");
            }
            this.attemptGuard = TimeoutGuard.of(operation, TimeoutConfig.custom().timeout(config.attemptTimeout())
                    .mode(TimeoutMode.INTERRUPT).build(), timeoutRuntime);
        } else {
            this.attemptGuard = null;
        }
        HedgePolicy hedge = config.hedge();
        if (hedge != null && timeoutRuntime == null) {
            throw new IllegalStateException("hedging on " + operation + " needs a TimeoutRuntime: its executor runs "
                    + "the parallel attempts");
        }
        this.hedgeRuntime = hedge != null ? timeoutRuntime : null;
        this.propagator = timeoutRuntime != null ? timeoutRuntime.propagator() : ContextPropagator.NONE;
        this.latency = hedge != null ? hedge.newEstimate() : null;
    }

    /**
     * The settings.
     *
     * @return the settings
     */
    public RetryConfig config() {
        return config;
    }

    /**
     * Whether calls are hedged.
     *
     * @return {@code true} when the config has a hedge policy
     */
    public boolean hedges() {
        return hedgeRuntime != null;
    }

    /** The executor of hedged attempts: a hedged round exists only for a config that hedges. */
    TimeoutRuntime hedgeRuntime() {
        return Objects.requireNonNull(hedgeRuntime, "a hedged round on a config without a hedge policy");
    }

    /** Whether a call in {@code outer} only observes: the rollout leaves its trace id out. */
    boolean observes(TraceContext outer) {
        return !enforcesAll && !config.rollout().enforces(outer);
    }

    /**
     * The context the attempts share: with a fresh record of failed targets when a balancer uses
     * it; inside an idempotent execution, always one of this call's own, whose place among the
     * execution's calls the execution records (its commits and downstream keys are told apart per
     * retried call).
     */
    TraceContext scopeOf(TraceContext current) {
        IdempotentExecution execution = current.idempotentExecution();
        if (execution == null) {
            return config.avoidFailedTargets() ? current.withFailedTargets(new FailedTargets()) : current;
        }
        TraceContext scope = config.avoidFailedTargets() ? current.withFailedTargets(new FailedTargets())
                : current.asRetriedCall();
        execution.beginRetriedCall(current, scope);
        return scope;
    }

    /**
     * Runs one attempt on the calling thread, numbered in the trace context, under the attempt
     * timeout; {@code mark}, when given, is how whoever may stop the attempt marks it first.
     */
    <T extends @Nullable Object> T runAttempt(CheckedCallable<T> work, TraceContext outer, int attempt,
            @Nullable CancelMark mark) throws Throwable {
        TraceContext context = attemptContext(outer, attempt, mark);
        CheckedCallable<T> traced = attemptTracing == AttemptTracing.NONE ? work
                : () -> attemptTracing.traced(operation, attempt, work);
        if (attemptGuard == null) {
            return TraceContextHolder.callWithin(context, traced);
        }
        try (TraceScope scope = TraceContextHolder.open(context)) {
            try {
                return attemptGuard.call(traced);
            } catch (DeadlineExceededException ex) {
                Deadline deadline = outer.deadline();
                if (deadline != null && deadline.isExpired()) {
                    throw ex;
                }
                throw new AttemptTimeoutException(operation, attempt, attemptGuard.config().timeout(), ex.getCause());
            }
        }
    }

    /** Starts one asynchronous attempt on the calling thread, numbered, marked as {@link #runAttempt}'s. */
    <T> CompletableFuture<T> startAttempt(CheckedCallable<? extends CompletionStage<T>> work, TraceContext outer,
            int attempt, @Nullable CancelMark mark) {
        try (TraceScope scope = TraceContextHolder.open(attemptContext(outer, attempt, mark))) {
            CheckedCallable<? extends CompletionStage<T>> traced = attemptTracing == AttemptTracing.NONE ? work
                    : () -> attemptTracing.tracedAsync(operation, attempt, work);
            if (attemptGuard == null) {
                return traced.call().toCompletableFuture();
            }
            TimeoutGuard guard = attemptGuard;
            return guard.callAsync(traced).exceptionallyCompose(failure -> {
                Throwable cause = Causes.unwrapAsync(failure);
                Deadline deadline = outer.deadline();
                if (cause instanceof DeadlineExceededException ex && (deadline == null || !deadline.isExpired())) {
                    return CompletableFuture.failedFuture(new AttemptTimeoutException(operation, attempt,
                            guard.config().timeout(), ex.getCause()));
                }
                return CompletableFuture.failedFuture(cause);
            });
        } catch (Throwable ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * {@code task}, to run later on another thread with what is thread-bound here: the trace
     * context and the MDC (TTL) and what the runtime's propagator carries.
     */
    Runnable carried(Runnable task) {
        return propagator.carry(task);
    }

    private static TraceContext attemptContext(TraceContext outer, int attempt, @Nullable CancelMark mark) {
        TraceContext numbered = outer.withAttempt(attempt);
        return mark == null ? numbered : numbered.withCancelMark(mark);
    }

    /** Counts a successful call. */
    void succeeded(int decisiveAttempt, int attempts, long callStarted) {
        observer.onComplete(operation, decisiveAttempt == 1 ? RetryOutcome.SUCCESS_WITHOUT_RETRY
                : RetryOutcome.SUCCESS_WITH_RETRY, attempts, time.nanoTime() - callStarted);
    }

    /** Counts a call whose results kept asking for a retry: the last one is still the answer. */
    void endedOnResult(int attempts, RetryStop stop, long callStarted) {
        observer.onComplete(operation, RetryDecider.outcome(attempts, stop), attempts, time.nanoTime() - callStarted);
    }

    /**
     * Ends a failed call: the earlier errors and a {@link RetrySummary} attached to the last one,
     * one log line (rule R-S1), the outcome counted.
     */
    Throwable finish(Throwable error, @Nullable List<Throwable> earlier, int attempts, int hedges, RetryStop stop,
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
        RetryOutcome outcome = RetryDecider.outcome(attempts, stop);
        error.addSuppressed(new RetrySummary(operation, attempts, hedges, outcome, reason));
        if (stop != RetryStop.NOT_RETRYABLE || attempts > 1) {
            // R-S1: one line per failed call, with the trace id from the MDC; the error is rethrown
            log.warn("{} failed after {} attempt(s), {}: {}", operation, attempts, reason, error.toString());
        }
        observer.onComplete(operation, outcome, attempts, time.nanoTime() - callStarted);
        return error;
    }
}
