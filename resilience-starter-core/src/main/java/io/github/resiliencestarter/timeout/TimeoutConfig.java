package io.github.resiliencestarter.timeout;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.rollout.EnforcementMode;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * Immutable settings of one timeout: the local limit, how it is enforced and whether an inherited
 * deadline also applies. Build one with {@link #custom()} or start from another with
 * {@link #from(TimeoutConfig)}.
 */
public final class TimeoutConfig {

    /** Local limit when nothing else is configured. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

    /** Enforcement when nothing else is configured. */
    public static final TimeoutMode DEFAULT_MODE = TimeoutMode.OFFLOAD;

    private static final TimeoutConfig DEFAULTS = custom().build();

    private final Duration timeout;

    private final TimeoutMode mode;

    private final boolean inheritDeadline;

    private final RolloutPolicy rollout;

    private TimeoutConfig(Builder builder) {
        this.timeout = builder.timeout;
        this.mode = builder.mode;
        this.inheritDeadline = builder.inheritDeadline;
        this.rollout = new RolloutPolicy(mode == TimeoutMode.OBSERVE ? EnforcementMode.OBSERVE : EnforcementMode.ENFORCE,
                builder.rolloutPercent);
    }

    /**
     * The defaults: {@link #DEFAULT_TIMEOUT}, {@link #DEFAULT_MODE}, inheriting the caller's deadline.
     *
     * @return the default settings
     */
    public static TimeoutConfig ofDefaults() {
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
     * @param base the settings to copy
     * @return a new builder
     */
    public static Builder from(TimeoutConfig base) {
        return new Builder().timeout(base.timeout).mode(base.mode).inheritDeadline(base.inheritDeadline)
                .rollout(base.rollout.percent());
    }

    /**
     * The local limit.
     *
     * @return a positive duration
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * How the limit is enforced.
     *
     * @return {@link TimeoutMode#OFFLOAD}, {@link TimeoutMode#INTERRUPT} or {@link TimeoutMode#OBSERVE}
     */
    public TimeoutMode mode() {
        return mode;
    }

    /**
     * Which calls the limit is enforced on: none in mode {@link TimeoutMode#OBSERVE}, otherwise
     * the rollout's share of requests, chosen by trace id; the others are observed.
     *
     * @return the rollout
     */
    public RolloutPolicy rollout() {
        return rollout;
    }

    /**
     * Whether an inherited deadline also bounds the work (the effective deadline is then the
     * earlier of the two).
     *
     * @return {@code true} unless deliberately switched off
     */
    public boolean inheritDeadline() {
        return inheritDeadline;
    }

    @Override
    public String toString() {
        return "TimeoutConfig[timeout=" + timeout + ", mode=" + mode + ", inheritDeadline=" + inheritDeadline
                + ", rollout=" + rollout.percent() + "%]";
    }

    /** Builds a {@link TimeoutConfig}; every setter validates its argument at once. */
    public static final class Builder {

        private Duration timeout = DEFAULT_TIMEOUT;

        private TimeoutMode mode = DEFAULT_MODE;

        private boolean inheritDeadline = true;

        private double rolloutPercent = 100;

        private Builder() {
        }

        /**
         * Sets the local limit.
         *
         * @param value a positive duration
         * @return this builder
         */
        public Builder timeout(Duration value) {
            Objects.requireNonNull(value, "timeout");
            if (value.isZero() || value.isNegative()) {
                throw new InvalidSettingException("timeout", "must be positive", value);
            }
            this.timeout = value;
            return this;
        }

        /**
         * Sets the enforcement mode.
         *
         * @param value {@link TimeoutMode#OFFLOAD}, {@link TimeoutMode#INTERRUPT} or
         *     {@link TimeoutMode#OBSERVE}
         * @return this builder
         */
        public Builder mode(TimeoutMode value) {
            Objects.requireNonNull(value, "mode");
            if (value == TimeoutMode.DEFAULT) {
                throw new InvalidSettingException("mode", "must be OFFLOAD, INTERRUPT or OBSERVE", value);
            }
            this.mode = value;
            return this;
        }

        /**
         * Sets whether an inherited deadline also applies.
         *
         * @param value {@code false} to let the work outlive the caller's budget
         * @return this builder
         */
        public Builder inheritDeadline(boolean value) {
            this.inheritDeadline = value;
            return this;
        }

        /**
         * Sets the share of requests (by trace id) the limit is enforced on; the others are
         * observed.
         *
         * @param percent from 0 to 100 (the default)
         * @return this builder
         */
        public Builder rollout(double percent) {
            this.rolloutPercent = RolloutPolicy.checkPercent(percent);
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return the immutable settings
         */
        public TimeoutConfig build() {
            return new TimeoutConfig(this);
        }
    }
}
