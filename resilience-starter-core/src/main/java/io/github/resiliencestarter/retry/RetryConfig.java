package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.retry.backoff.BackOff;
import io.github.resiliencestarter.retry.backoff.ExponentialBackOff;
import io.github.resiliencestarter.retry.backoff.Jitter;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Immutable settings of a retry: how many attempts, how long between them, which failures (and
 * results) count as transient, how long one attempt may take, and the budget that stops retry
 * storms. Build one with {@link #custom()}.
 *
 * <pre>{@code
 * RetryConfig policy = RetryConfig.custom()
 *         .maxAttempts(3)
 *         .backOff(new ExponentialBackOff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1)))
 *         .jitter(Jitters.full())
 *         .build();
 * }</pre>
 */
public final class RetryConfig {

    /** Attempts, counting the first, when nothing else is configured. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    /**
     * The shortest time an attempt is assumed to need when deciding whether one more fits the
     * deadline; the previous attempt's own duration is used when it was longer.
     */
    public static final Duration DEFAULT_MIN_ATTEMPT_TIME = Duration.ofMillis(5);

    /** Default cap on a server's {@code Retry-After}. */
    public static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofSeconds(30);

    private static final RetryConfig DEFAULTS = custom().build();

    private final int maxAttempts;

    private final BackOff backOff;

    private final Jitter jitter;

    private final RetryClassifier classifier;

    private final @Nullable Predicate<Object> retryOnResult;

    private final RetryBudget budget;

    private final @Nullable Duration attemptTimeout;

    private final Duration maxRetryAfter;

    private final Duration minAttemptTime;

    private final boolean onlyUnsentFailures;

    private final boolean avoidFailedTargets;

    private final @Nullable HedgePolicy hedge;

    private final RolloutPolicy rollout;

    private RetryConfig(Builder builder) {
        this.maxAttempts = builder.maxAttempts;
        this.backOff = builder.backOff;
        this.jitter = builder.jitter;
        this.classifier = builder.classifier;
        this.retryOnResult = builder.retryOnResult;
        this.budget = builder.budget;
        this.attemptTimeout = builder.attemptTimeout;
        this.maxRetryAfter = builder.maxRetryAfter;
        this.minAttemptTime = builder.minAttemptTime;
        this.onlyUnsentFailures = builder.onlyUnsentFailures;
        this.avoidFailedTargets = builder.avoidFailedTargets;
        this.hedge = builder.hedge;
        this.rollout = builder.rollout;
    }

    /**
     * The defaults: 3 attempts, exponential ×2 from 100 ms capped at 1 s, full jitter, default
     * classification, no budget.
     *
     * @return the default policy
     */
    public static RetryConfig ofDefaults() {
        return DEFAULTS;
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a new builder
     */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * A builder starting from {@code base}.
     *
     * @param base the policy to copy
     * @return a new builder
     */
    public static Builder from(RetryConfig base) {
        Builder builder = new Builder();
        builder.maxAttempts = base.maxAttempts;
        builder.backOff = base.backOff;
        builder.jitter = base.jitter;
        builder.classifier = base.classifier;
        builder.retryOnResult = base.retryOnResult;
        builder.budget = base.budget;
        builder.attemptTimeout = base.attemptTimeout;
        builder.maxRetryAfter = base.maxRetryAfter;
        builder.minAttemptTime = base.minAttemptTime;
        builder.onlyUnsentFailures = base.onlyUnsentFailures;
        builder.avoidFailedTargets = base.avoidFailedTargets;
        builder.hedge = base.hedge;
        builder.rollout = base.rollout;
        return builder;
    }

    /** @return attempts, counting the first */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** @return the base delay strategy */
    public BackOff backOff() {
        return backOff;
    }

    /** @return the jitter strategy */
    public Jitter jitter() {
        return jitter;
    }

    /** @return the failure classification */
    public RetryClassifier classifier() {
        return classifier;
    }

    /** @return the predicate on results that asks for another attempt, or {@code null} */
    public @Nullable Predicate<Object> retryOnResult() {
        return retryOnResult;
    }

    /** @return the retry budget */
    public RetryBudget budget() {
        return budget;
    }

    /** @return the limit of one attempt, or {@code null} for none */
    public @Nullable Duration attemptTimeout() {
        return attemptTimeout;
    }

    /**
     * The longest wait a server's {@code Retry-After} may ask for; a longer request waits this long.
     * A hostile or sick downstream's {@code Retry-After: 86400} must not park the caller for a day.
     *
     * @return the cap
     */
    public Duration maxRetryAfter() {
        return maxRetryAfter;
    }

    /** @return the shortest time an attempt is assumed to need */
    public Duration minAttemptTime() {
        return minAttemptTime;
    }

    /**
     * Whether only failures that happened before the request was sent are retried; set for
     * operations that are not known to be idempotent.
     *
     * @return {@code true} to restrict retries to unsent requests
     */
    public boolean onlyUnsentFailures() {
        return onlyUnsentFailures;
    }

    /**
     * Whether each call keeps a record of the targets its attempts failed on
     * ({@link io.github.resiliencestarter.context.FailedTargets}), for a load balancer to avoid them.
     *
     * @return {@code true} when calls carry the record
     */
    public boolean avoidFailedTargets() {
        return avoidFailedTargets;
    }

    /**
     * When a slow attempt gets a parallel one beside it (hedging), or {@code null} for never.
     *
     * @return the hedge policy
     */
    public @Nullable HedgePolicy hedge() {
        return hedge;
    }

    /**
     * Which calls retry: in mode enforce, the rollout's share of requests, chosen by trace id; the
     * others, and every call in mode observe, make one attempt and count the retry that was due
     * ({@link RetryOutcome#WOULD_RETRY}).
     *
     * @return the rollout
     */
    public RolloutPolicy rollout() {
        return rollout;
    }

    @Override
    public String toString() {
        return "RetryConfig[maxAttempts=" + maxAttempts + ", backOff=" + backOff + ", attemptTimeout="
                + attemptTimeout + ", onlyUnsentFailures=" + onlyUnsentFailures + ", hedge=" + hedge + ", rollout=" + rollout + "]";
    }

    /** Builds a {@link RetryConfig}; every setter validates its argument at once. */
    public static final class Builder {

        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;

        private BackOff backOff = ExponentialBackOff.ofDefaults();

        private Jitter jitter = Jitters.full();

        private RetryClassifier classifier = RetryClassifier.ofDefaults();

        private @Nullable Predicate<Object> retryOnResult;

        private RetryBudget budget = RetryBudget.UNLIMITED;

        private @Nullable Duration attemptTimeout;

        private Duration maxRetryAfter = DEFAULT_MAX_RETRY_AFTER;

        private Duration minAttemptTime = DEFAULT_MIN_ATTEMPT_TIME;

        private boolean onlyUnsentFailures;

        private boolean avoidFailedTargets;

        private @Nullable HedgePolicy hedge;

        private RolloutPolicy rollout = RolloutPolicy.ENFORCE_ALL;

        private Builder() {
        }

        /**
         * Sets the attempts, counting the first.
         *
         * @param value at least 1
         * @return this builder
         */
        public Builder maxAttempts(int value) {
            if (value < 1) {
                throw new InvalidSettingException("maxAttempts", "must be at least 1", value);
            }
            this.maxAttempts = value;
            return this;
        }

        /**
         * Sets the base delay strategy.
         *
         * @param value the back-off
         * @return this builder
         */
        public Builder backOff(BackOff value) {
            this.backOff = Objects.requireNonNull(value, "backOff");
            return this;
        }

        /**
         * Sets the jitter strategy.
         *
         * @param value the jitter
         * @return this builder
         */
        public Builder jitter(Jitter value) {
            this.jitter = Objects.requireNonNull(value, "jitter");
            return this;
        }

        /**
         * Sets the failure classification.
         *
         * @param value the classifier
         * @return this builder
         */
        public Builder classifier(RetryClassifier value) {
            this.classifier = Objects.requireNonNull(value, "classifier");
            return this;
        }

        /**
         * Retries when a result matches; the last result is returned when attempts run out.
         *
         * @param value the predicate, or {@code null} for none
         * @return this builder
         */
        public Builder retryOnResult(@Nullable Predicate<Object> value) {
            this.retryOnResult = value;
            return this;
        }

        /**
         * Sets the retry budget.
         *
         * @param value the budget
         * @return this builder
         */
        public Builder budget(RetryBudget value) {
            this.budget = Objects.requireNonNull(value, "budget");
            return this;
        }

        /**
         * Caps the wait a server's {@code Retry-After} asks for.
         *
         * @param value a duration, zero or more (zero: retry at once whatever the server asks)
         * @return this builder
         */
        public Builder maxRetryAfter(Duration value) {
            if (value == null || value.isNegative()) {
                throw new InvalidSettingException("maxRetryAfter", "must be zero or more", value);
            }
            this.maxRetryAfter = value;
            return this;
        }

        /**
         * Bounds each attempt; an attempt that runs out of it fails with a retryable
         * {@link AttemptTimeoutException}.
         *
         * @param value a positive duration, or {@code null} for none
         * @return this builder
         */
        public Builder attemptTimeout(@Nullable Duration value) {
            if (value != null && (value.isZero() || value.isNegative())) {
                throw new InvalidSettingException("attemptTimeout", "must be positive", value);
            }
            this.attemptTimeout = value;
            return this;
        }

        /**
         * Sets the shortest time an attempt is assumed to need.
         *
         * @param value not negative
         * @return this builder
         */
        public Builder minAttemptTime(Duration value) {
            if (value == null || value.isNegative()) {
                throw new InvalidSettingException("minAttemptTime", "must not be negative", value);
            }
            this.minAttemptTime = value;
            return this;
        }

        /**
         * Gives each call a record of the targets its attempts failed on, for a client-side load
         * balancer to send the next attempt elsewhere (rule R-5).
         *
         * @param value {@code true} when a balancer reads the record
         * @return this builder
         */
        public Builder avoidFailedTargets(boolean value) {
            this.avoidFailedTargets = value;
            return this;
        }

        /**
         * Restricts retries to failures that happened before the request was sent.
         *
         * @param value {@code true} to restrict
         * @return this builder
         */
        public Builder onlyUnsentFailures(boolean value) {
            this.onlyUnsentFailures = value;
            return this;
        }

        /**
         * Hedges slow attempts: after the policy's delay another attempt starts beside the one in
         * flight, the first success wins and the others are cancelled. A hedge is an attempt: it
         * has its own number, counts towards {@link #maxAttempts(int)} and takes a token of the
         * retry budget. Only for operations that are safe to run twice at the same time.
         *
         * @param value the policy, or {@code null} for no hedging
         * @return this builder
         */
        public Builder hedge(@Nullable HedgePolicy value) {
            this.hedge = value;
            return this;
        }

        /**
         * Sets which calls retry and which only observe (docs/rollout.md).
         *
         * @param value the rollout; {@link RolloutPolicy#ENFORCE_ALL} by default
         * @return this builder
         */
        public Builder rollout(RolloutPolicy value) {
            this.rollout = Objects.requireNonNull(value, "rollout");
            return this;
        }

        /**
         * Builds the policy.
         *
         * @return the policy
         * @throws InvalidSettingException when hedging meets fewer than 2 attempts, or a policy that
         *     may only repeat requests that were never sent
         */
        public RetryConfig build() {
            if (hedge != null && maxAttempts < 2) {
                throw new InvalidSettingException("maxAttempts", "must be at least 2 with hedging (a hedge is an "
                        + "attempt)", maxAttempts);
            }
            if (hedge != null && onlyUnsentFailures) {
                // hedging sends the same request twice on purpose: the opposite of repeating only unsent ones
                throw new InvalidSettingException("hedge", "cannot be set on an operation that may only repeat "
                        + "requests that were never sent", hedge);
            }
            return new RetryConfig(this);
        }
    }
}
