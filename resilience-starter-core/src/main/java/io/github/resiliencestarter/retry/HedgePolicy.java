package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.DurationEstimate;
import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * When a retried operation sends a second, parallel attempt instead of waiting for a slow first
 * one: after a fixed delay, or after the operation's observed latency percentile (for example the
 * p95, so about one call in twenty is hedged). The first success wins and the other attempts are
 * cancelled. At most {@link #maxHedges()} extra attempts run beside the first one.
 *
 * <pre>{@code
 * RetryConfig reads = RetryConfig.custom().hedge(HedgePolicy.atPercentile(95)).build();
 * RetryConfig fixed = RetryConfig.custom().hedge(HedgePolicy.after(Duration.ofMillis(50)).maxHedges(2)).build();
 * }</pre>
 *
 * <p>Immutable; every {@code with}-style method returns a copy. In the percentile mode the delay is
 * never below {@link #minDelay()}, and is {@link #initialDelay()} until {@link #minSamples()}
 * durations were observed.
 */
public final class HedgePolicy {

    /** Extra attempts in flight beside the first, when nothing else is configured. */
    public static final int DEFAULT_MAX_HEDGES = 1;

    /** The shortest delay the percentile mode uses: a very fast operation is not hedged at once. */
    public static final Duration DEFAULT_MIN_DELAY = Duration.ofMillis(1);

    /** The delay of the percentile mode until enough durations were observed. */
    public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofMillis(100);

    /** Durations observed before the percentile mode trusts its estimate. */
    public static final int DEFAULT_MIN_SAMPLES = 50;

    private final @Nullable Duration fixedDelay;

    private final double percentile;

    private final int maxHedges;

    private final Duration minDelay;

    private final Duration initialDelay;

    private final int minSamples;

    private HedgePolicy(@Nullable Duration fixedDelay, double percentile, int maxHedges, Duration minDelay,
            Duration initialDelay, int minSamples) {
        this.fixedDelay = fixedDelay;
        this.percentile = percentile;
        this.maxHedges = maxHedges;
        this.minDelay = minDelay;
        this.initialDelay = initialDelay;
        this.minSamples = minSamples;
    }

    /**
     * Hedges a call still running after {@code delay}.
     *
     * @param delay not negative
     * @return the policy, with {@link #DEFAULT_MAX_HEDGES}
     */
    public static HedgePolicy after(Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new InvalidSettingException("hedgeDelay", "must not be negative", delay);
        }
        return new HedgePolicy(delay, 0, DEFAULT_MAX_HEDGES, DEFAULT_MIN_DELAY, DEFAULT_INITIAL_DELAY,
                DEFAULT_MIN_SAMPLES);
    }

    /**
     * Hedges a call still running after the operation's observed {@code percentile} latency.
     *
     * @param percentile above 0 and below 100, for example 95
     * @return the policy, with the defaults for the rest
     */
    public static HedgePolicy atPercentile(double percentile) {
        if (!(percentile > 0 && percentile < 100)) {
            throw new InvalidSettingException("hedgeDelay", "must be a percentile above 0 and below 100", percentile);
        }
        return new HedgePolicy(null, percentile, DEFAULT_MAX_HEDGES, DEFAULT_MIN_DELAY, DEFAULT_INITIAL_DELAY,
                DEFAULT_MIN_SAMPLES);
    }

    /**
     * A copy with another limit of extra attempts in flight.
     *
     * @param value at least 1
     * @return the copy
     */
    public HedgePolicy maxHedges(int value) {
        if (value < 1) {
            throw new InvalidSettingException("maxHedges", "must be at least 1", value);
        }
        return new HedgePolicy(fixedDelay, percentile, value, minDelay, initialDelay, minSamples);
    }

    /**
     * A copy with another floor of the percentile mode's delay.
     *
     * @param value not negative
     * @return the copy
     */
    public HedgePolicy minDelay(Duration value) {
        if (value == null || value.isNegative()) {
            throw new InvalidSettingException("hedgeMinDelay", "must not be negative", value);
        }
        return new HedgePolicy(fixedDelay, percentile, maxHedges, value, initialDelay, minSamples);
    }

    /**
     * A copy with another delay for the percentile mode's start, before enough samples.
     *
     * @param value not negative
     * @return the copy
     */
    public HedgePolicy initialDelay(Duration value) {
        if (value == null || value.isNegative()) {
            throw new InvalidSettingException("hedgeInitialDelay", "must not be negative", value);
        }
        return new HedgePolicy(fixedDelay, percentile, maxHedges, minDelay, value, minSamples);
    }

    /**
     * A copy that trusts the observed percentile after another number of samples.
     *
     * @param value 1 to {@link DurationEstimate#WINDOW}
     * @return the copy
     */
    public HedgePolicy minSamples(int value) {
        if (value < 1 || value > DurationEstimate.WINDOW) {
            throw new InvalidSettingException("hedgeMinSamples", "must be between 1 and " + DurationEstimate.WINDOW,
                    value);
        }
        return new HedgePolicy(fixedDelay, percentile, maxHedges, minDelay, initialDelay, value);
    }

    /** @return the fixed delay, or {@code null} in the percentile mode */
    public @Nullable Duration fixedDelay() {
        return fixedDelay;
    }

    /** @return the percentile followed, or 0 in the fixed mode */
    public double percentile() {
        return percentile;
    }

    /** @return whether the delay follows the observed latency */
    public boolean isObserved() {
        return fixedDelay == null;
    }

    /** @return the most extra attempts in flight beside the first */
    public int maxHedges() {
        return maxHedges;
    }

    /** @return the floor of the percentile mode's delay */
    public Duration minDelay() {
        return minDelay;
    }

    /** @return the percentile mode's delay before enough samples */
    public Duration initialDelay() {
        return initialDelay;
    }

    /** @return samples observed before the percentile mode trusts its estimate */
    public int minSamples() {
        return minSamples;
    }

    /**
     * A fresh latency estimate for one operation, or {@code null} in the fixed mode.
     *
     * @return the estimate
     */
    public @Nullable DurationEstimate newEstimate() {
        return isObserved() ? DurationEstimate.percentile(percentile, minSamples) : null;
    }

    /**
     * The delay before the next hedge.
     *
     * @param estimate the operation's estimate, from {@link #newEstimate()}
     * @return nanoseconds
     */
    public long delayNanos(@Nullable DurationEstimate estimate) {
        if (fixedDelay != null) {
            return fixedDelay.toNanos();
        }
        long observed = estimate == null ? -1 : estimate.estimateNanos();
        return observed < 0 ? initialDelay.toNanos() : Math.max(minDelay.toNanos(), observed);
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof HedgePolicy that && Objects.equals(fixedDelay, that.fixedDelay)
                && percentile == that.percentile && maxHedges == that.maxHedges && minDelay.equals(that.minDelay)
                && initialDelay.equals(that.initialDelay) && minSamples == that.minSamples;
    }

    @Override
    public int hashCode() {
        return Objects.hash(fixedDelay, percentile, maxHedges, minDelay, initialDelay, minSamples);
    }

    @Override
    public String toString() {
        String max = ", at most " + maxHedges + (maxHedges == 1 ? " hedge" : " hedges");
        if (fixedDelay != null) {
            return "after " + millis(fixedDelay) + max;
        }
        String p = percentile == Math.rint(percentile) ? String.valueOf((long) percentile) : String.valueOf(percentile);
        return "after the observed p" + p + " (at least " + millis(minDelay) + "; " + millis(initialDelay)
                + " until " + minSamples + " samples)" + max;
    }

    private static String millis(Duration duration) {
        return java.math.BigDecimal.valueOf(duration.toNanos(), 6).stripTrailingZeros().toPlainString() + "ms";
    }
}
