package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.retry.internal.AsyncRetry;
import io.github.resiliencestarter.retry.internal.BlockingRetry;
import io.github.resiliencestarter.retry.internal.RetryEngine;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

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
 *
 * <p>A facade over the engine in {@code retry.internal}: one decision ({@code RetryDecider}),
 * driven by a blocking and an asynchronous driver; hedging is a strategy of its own inside a
 * retry, one round's decisions ({@code HedgeRound}) with a blocking and an asynchronous adapter.
 */
public final class Retrier {

    /** Earlier errors attached to the final one at most; keeps huge attempt counts from bloating it. */
    public static final int MAX_SUPPRESSED = RetryEngine.MAX_SUPPRESSED;

    private final RetryEngine engine;

    private Retrier(Builder builder) {
        this.engine = new RetryEngine(builder.operation, builder.config, builder.time, builder.sleeper,
                builder.random, builder.observer, builder.timeoutRuntime, builder.attemptTracing);
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
        return engine.config();
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
    public <T extends @Nullable Object> T call(CheckedCallable<T> work) throws Throwable {
        return BlockingRetry.run(engine, work, engine.hedges());
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
    public <T extends @Nullable Object> T callInPlace(CheckedCallable<T> work) throws Throwable {
        return BlockingRetry.run(engine, work, false);
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
        return AsyncRetry.run(engine, work);
    }

    /** Builds a {@link Retrier}. */
    public static final class Builder {

        private final String operation;

        private final RetryConfig config;

        private TimeSource time = TimeSource.SYSTEM;

        private Sleeper sleeper = Sleeper.SYSTEM;

        private @Nullable RandomGenerator random;

        private RetryObserver observer = RetryObserver.NOOP;

        private AttemptTracing attemptTracing = AttemptTracing.NONE;

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
         * Gives each attempt a span of its own ({@link AttemptTracing#NONE} by default).
         *
         * @param value the attempts' tracing
         * @return this builder
         */
        public Builder attemptTracing(AttemptTracing value) {
            this.attemptTracing = Objects.requireNonNull(value);
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
