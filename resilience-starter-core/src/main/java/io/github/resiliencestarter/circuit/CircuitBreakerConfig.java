package io.github.resiliencestarter.circuit;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.retry.RetryClassifier;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one circuit breaker, immutable: when it opens (failure and slow-call rates over
 * a sliding window), how long it stays open, how many probes it lets through half-open, and how
 * admitted traffic ramps up after it closes again.
 *
 * <pre>{@code
 * CircuitBreakerConfig config = CircuitBreakerConfig.custom()
 *         .failureRateThreshold(50).waitInOpenState(Duration.ofSeconds(10))
 *         .warmUp(Duration.ofSeconds(30), 10).build();
 * }</pre>
 *
 * <p>What counts as a failure is the retry classification ({@link #classifier()}): a failure that
 * is transient for retry (I/O, 5xx, a timeout) counts against the downstream; any other answer
 * counts as a success, because the downstream answered; the starter's own refusals (a spent
 * deadline, an idempotency conflict, another open circuit) and {@code ignore}d types do not
 * count at all (see docs/circuit-breaker.md).
 */
public final class CircuitBreakerConfig {

    /** Default failure rate, in percent, at which the circuit opens. */
    public static final float DEFAULT_FAILURE_RATE_THRESHOLD = 50;

    /** Default slow-call rate, in percent, at which the circuit opens. */
    public static final float DEFAULT_SLOW_CALL_RATE_THRESHOLD = 100;

    /** Default duration from which a call is slow. */
    public static final Duration DEFAULT_SLOW_CALL_DURATION = Duration.ofSeconds(2);

    /** Default number of calls (or seconds) in the sliding window. */
    public static final int DEFAULT_SLIDING_WINDOW_SIZE = 100;

    /** Default number of calls the window needs before a rate can open the circuit. */
    public static final int DEFAULT_MINIMUM_CALLS = 20;

    /** Default time the circuit stays open before it lets probes through. */
    public static final Duration DEFAULT_WAIT_IN_OPEN_STATE = Duration.ofSeconds(10);

    /**
     * Default longest time half-open: a probe that never ends (no timeout around it) must not hold
     * the circuit half-open, refusing everything else, for good; past it the circuit opens again.
     */
    public static final Duration DEFAULT_MAX_WAIT_IN_HALF_OPEN_STATE = Duration.ofSeconds(60);

    /** Default number of probes half-open. */
    public static final int DEFAULT_HALF_OPEN_CALLS = 5;

    /** Default length of the ramp after the circuit closes. */
    public static final Duration DEFAULT_WARM_UP = Duration.ofSeconds(30);

    /** Default share of calls admitted when the ramp starts, in percent. */
    public static final double DEFAULT_WARM_UP_START_PERCENT = 10;

    private static final CircuitBreakerConfig DEFAULTS = custom().build();

    private final float failureRateThreshold;

    private final float slowCallRateThreshold;

    private final Duration slowCallDuration;

    private final SlidingWindow slidingWindow;

    private final int slidingWindowSize;

    private final int minimumCalls;

    private final Duration waitInOpenState;

    private final int halfOpenCalls;

    private final Duration maxWaitInHalfOpenState;

    private final Duration warmUp;

    private final double warmUpStartPercent;

    private final RetryClassifier classifier;

    private final boolean perInstance;

    private CircuitBreakerConfig(Builder builder) {
        this.failureRateThreshold = builder.failureRateThreshold;
        this.slowCallRateThreshold = builder.slowCallRateThreshold;
        this.slowCallDuration = builder.slowCallDuration;
        this.slidingWindow = builder.slidingWindow;
        this.slidingWindowSize = builder.slidingWindowSize;
        this.minimumCalls = builder.minimumCalls;
        this.waitInOpenState = builder.waitInOpenState;
        this.halfOpenCalls = builder.halfOpenCalls;
        this.maxWaitInHalfOpenState = builder.maxWaitInHalfOpenState;
        this.warmUp = builder.warmUp;
        this.warmUpStartPercent = builder.warmUpStartPercent;
        this.classifier = builder.classifier;
        this.perInstance = builder.perInstance;
    }

    /**
     * The defaults: opens at 50 % failures or 100 % slow calls (2 s) over the last 100 calls, once
     * 20 were seen; open 10 s; 5 probes; a 30 s ramp from 10 %.
     *
     * @return the default settings
     */
    public static CircuitBreakerConfig ofDefaults() {
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
     * @param base the settings to start from
     * @return a new builder
     */
    public static Builder from(CircuitBreakerConfig base) {
        Builder builder = new Builder();
        builder.failureRateThreshold = base.failureRateThreshold;
        builder.slowCallRateThreshold = base.slowCallRateThreshold;
        builder.slowCallDuration = base.slowCallDuration;
        builder.slidingWindow = base.slidingWindow;
        builder.slidingWindowSize = base.slidingWindowSize;
        builder.minimumCalls = base.minimumCalls;
        builder.waitInOpenState = base.waitInOpenState;
        builder.halfOpenCalls = base.halfOpenCalls;
        builder.maxWaitInHalfOpenState = base.maxWaitInHalfOpenState;
        builder.warmUp = base.warmUp;
        builder.warmUpStartPercent = base.warmUpStartPercent;
        builder.classifier = base.classifier;
        builder.perInstance = base.perInstance;
        return builder;
    }

    /**
     * The failure rate, in percent of the window's calls, at which the circuit opens.
     *
     * @return a percentage above 0 and at most 100
     */
    public float failureRateThreshold() {
        return failureRateThreshold;
    }

    /**
     * The slow-call rate, in percent of the window's calls, at which the circuit opens.
     *
     * @return a percentage above 0 and at most 100
     */
    public float slowCallRateThreshold() {
        return slowCallRateThreshold;
    }

    /**
     * From how long a call is slow. Also the fair chance of an attempt cut by the caller's
     * deadline: one cut sooner is not the downstream's failure.
     *
     * @return the duration
     */
    public Duration slowCallDuration() {
        return slowCallDuration;
    }

    /**
     * Whether the window counts calls or seconds.
     *
     * @return the window kind
     */
    public SlidingWindow slidingWindow() {
        return slidingWindow;
    }

    /**
     * The window's size: calls, or seconds.
     *
     * @return the size
     */
    public int slidingWindowSize() {
        return slidingWindowSize;
    }

    /**
     * Calls the window needs before a rate can open the circuit.
     *
     * @return the count
     */
    public int minimumCalls() {
        return minimumCalls;
    }

    /**
     * How long the circuit stays open before it lets probes through.
     *
     * @return the wait
     */
    public Duration waitInOpenState() {
        return waitInOpenState;
    }

    /**
     * Probes let through half-open; their outcome closes or opens the circuit again.
     *
     * @return the count
     */
    public int halfOpenCalls() {
        return halfOpenCalls;
    }

    /**
     * How long the circuit may stay half-open waiting for its probes before it opens again;
     * {@link Duration#ZERO} waits for them however long they take.
     *
     * @return the limit
     */
    public Duration maxWaitInHalfOpenState() {
        return maxWaitInHalfOpenState;
    }

    /**
     * How long admitted traffic ramps up after the circuit closes; {@link Duration#ZERO} admits
     * everything at once.
     *
     * @return the ramp's length
     */
    public Duration warmUp() {
        return warmUp;
    }

    /**
     * The share of calls admitted when the ramp starts; it rises linearly to all of them.
     *
     * @return a percentage above 0 and at most 100
     */
    public double warmUpStartPercent() {
        return warmUpStartPercent;
    }

    /**
     * The classification that says which failures count against the downstream.
     *
     * @return the classifier
     */
    public RetryClassifier classifier() {
        return classifier;
    }

    /**
     * Whether a load-balanced service of this name gets one breaker per instance
     * ({@code name[host:port]}), so that the balancer leaves out an instance whose circuit is
     * open and a retry goes elsewhere. Read by the load-balancer adapter.
     *
     * @return {@code true} for a breaker per instance
     */
    public boolean perInstance() {
        return perInstance;
    }

    /**
     * Whether {@code other} holds the same settings, so a reload can leave a breaker alone when
     * its settings did not change.
     *
     * @param other another object
     * @return {@code true} for equal settings
     */
    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof CircuitBreakerConfig that && failureRateThreshold == that.failureRateThreshold
                && slowCallRateThreshold == that.slowCallRateThreshold && slowCallDuration.equals(that.slowCallDuration)
                && slidingWindow == that.slidingWindow && slidingWindowSize == that.slidingWindowSize
                && minimumCalls == that.minimumCalls && waitInOpenState.equals(that.waitInOpenState)
                && halfOpenCalls == that.halfOpenCalls && maxWaitInHalfOpenState.equals(that.maxWaitInHalfOpenState)
                && warmUp.equals(that.warmUp) && warmUpStartPercent == that.warmUpStartPercent && perInstance == that.perInstance
                && classifier.equals(that.classifier);
    }

    @Override
    public int hashCode() {
        return Objects.hash(failureRateThreshold, slowCallRateThreshold, slowCallDuration, slidingWindow,
                slidingWindowSize, minimumCalls, waitInOpenState, halfOpenCalls, warmUp, warmUpStartPercent, perInstance);
    }

    /** Whether the sliding window counts calls or seconds. */
    public enum SlidingWindow {

        /** The last N calls. */
        COUNT_BASED,

        /** The calls of the last N seconds. */
        TIME_BASED
    }

    /** Builds a {@link CircuitBreakerConfig}; every value is checked when set. */
    public static final class Builder {

        private float failureRateThreshold = DEFAULT_FAILURE_RATE_THRESHOLD;

        private float slowCallRateThreshold = DEFAULT_SLOW_CALL_RATE_THRESHOLD;

        private Duration slowCallDuration = DEFAULT_SLOW_CALL_DURATION;

        private SlidingWindow slidingWindow = SlidingWindow.COUNT_BASED;

        private int slidingWindowSize = DEFAULT_SLIDING_WINDOW_SIZE;

        private int minimumCalls = DEFAULT_MINIMUM_CALLS;

        private Duration waitInOpenState = DEFAULT_WAIT_IN_OPEN_STATE;

        private int halfOpenCalls = DEFAULT_HALF_OPEN_CALLS;

        private Duration maxWaitInHalfOpenState = DEFAULT_MAX_WAIT_IN_HALF_OPEN_STATE;

        private Duration warmUp = DEFAULT_WARM_UP;

        private double warmUpStartPercent = DEFAULT_WARM_UP_START_PERCENT;

        private RetryClassifier classifier = RetryClassifier.builder().ioFailuresTransient(true).build();

        private boolean perInstance;

        private Builder() {
        }

        /**
         * One breaker per instance of a load-balanced service of this name.
         *
         * @param value whether breakers are per instance
         * @return this builder
         */
        public Builder perInstance(boolean value) {
            this.perInstance = value;
            return this;
        }

        /**
         * The failure rate at which the circuit opens.
         *
         * @param percent above 0 and at most 100
         * @return this builder
         */
        public Builder failureRateThreshold(float percent) {
            this.failureRateThreshold = percentage("failureRateThreshold", percent);
            return this;
        }

        /**
         * The slow-call rate at which the circuit opens.
         *
         * @param percent above 0 and at most 100
         * @return this builder
         */
        public Builder slowCallRateThreshold(float percent) {
            this.slowCallRateThreshold = percentage("slowCallRateThreshold", percent);
            return this;
        }

        /**
         * From how long a call is slow.
         *
         * @param value a positive duration
         * @return this builder
         */
        public Builder slowCallDuration(Duration value) {
            this.slowCallDuration = positive("slowCallDuration", value);
            return this;
        }

        /**
         * The sliding window.
         *
         * @param kind calls or seconds
         * @param size how many of them, 1 or more
         * @return this builder
         */
        public Builder slidingWindow(SlidingWindow kind, int size) {
            this.slidingWindow = Objects.requireNonNull(kind, "kind");
            this.slidingWindowSize = atLeastOne("slidingWindowSize", size);
            return this;
        }

        /**
         * Calls the window needs before a rate can open the circuit.
         *
         * @param value 1 or more
         * @return this builder
         */
        public Builder minimumCalls(int value) {
            this.minimumCalls = atLeastOne("minimumCalls", value);
            return this;
        }

        /**
         * How long the circuit stays open.
         *
         * @param value a positive duration
         * @return this builder
         */
        public Builder waitInOpenState(Duration value) {
            this.waitInOpenState = positive("waitInOpenState", value);
            return this;
        }

        /**
         * Probes let through half-open.
         *
         * @param value 1 or more
         * @return this builder
         */
        public Builder halfOpenCalls(int value) {
            this.halfOpenCalls = atLeastOne("halfOpenCalls", value);
            return this;
        }

        /**
         * How long the circuit may stay half-open before it opens again (default 60 s).
         *
         * @param value zero (as long as the probes take) or a positive duration
         * @return this builder
         */
        public Builder maxWaitInHalfOpenState(Duration value) {
            this.maxWaitInHalfOpenState = notNegative("maxWaitInHalfOpenState", value);
            return this;
        }

        /**
         * The ramp after the circuit closes.
         *
         * @param length zero (no ramp) or a positive duration
         * @param startPercent the share admitted when it starts, in percent: above 0 and at most 100
         * @return this builder
         */
        public Builder warmUp(Duration length, double startPercent) {
            this.warmUp = notNegative("warmUp", length);
            if (!(startPercent > 0 && startPercent <= 100)) {
                throw new InvalidSettingException("warmUpStartPercent", "must be above 0 and at most 100", startPercent);
            }
            this.warmUpStartPercent = startPercent;
            return this;
        }

        /**
         * The classification of failures; its transient failures count against the downstream.
         *
         * @param value the classifier
         * @return this builder
         */
        public Builder classifier(RetryClassifier value) {
            this.classifier = Objects.requireNonNull(value, "classifier");
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return the settings
         */
        public CircuitBreakerConfig build() {
            return new CircuitBreakerConfig(this);
        }

        private static float percentage(String name, float value) {
            if (!(value > 0 && value <= 100)) {
                throw new InvalidSettingException(name, "must be above 0 and at most 100", value);
            }
            return value;
        }

        private static int atLeastOne(String name, int value) {
            if (value < 1) {
                throw new InvalidSettingException(name, "must be at least 1", value);
            }
            return value;
        }

        private static Duration positive(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new InvalidSettingException(name, "must be positive", value);
            }
            return value;
        }

        private static Duration notNegative(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isNegative()) {
                throw new InvalidSettingException(name, "must not be negative", value);
            }
            return value;
        }
    }
}
