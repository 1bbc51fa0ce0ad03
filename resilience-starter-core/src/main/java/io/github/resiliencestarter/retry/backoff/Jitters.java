package io.github.resiliencestarter.retry.backoff;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.util.random.RandomGenerator;

/**
 * The standard jitter strategies. With {@code b} the back-off's delay, {@code p} the previous
 * delay and {@code [lo, hi]} the back-off's bounds:
 *
 * <ul>
 * <li>{@link #none()}: {@code b}</li>
 * <li>{@link #full()}: uniform in {@code [0, b]}</li>
 * <li>{@link #equal()}: {@code b/2} + uniform in {@code [0, b/2]}</li>
 * <li>{@link #decorrelated()}: uniform in {@code [lo, max(lo, 3p)]}, capped at {@code hi}</li>
 * <li>{@link #proportional(double) proportional(f)}: uniform in {@code [b(1-f), b(1+f)]}; the only one
 * that may exceed {@code hi}, by at most {@code f × b}</li>
 * </ul>
 */
public final class Jitters {

    private static final Jitter NONE = (base, previous, backOff, random) -> base;

    private static final Jitter FULL = (base, previous, backOff, random) -> uniform(random, 0, base);

    private static final Jitter EQUAL = (base, previous, backOff, random) -> {
        long half = base / 2;
        return half + uniform(random, 0, base - half);
    };

    private static final Jitter DECORRELATED = (base, previous, backOff, random) -> {
        long lo = backOff.initialNanos();
        long hi = backOff.maxNanos();
        long upper = previous <= 0 ? lo : Math.max(lo, saturatedTimes3(previous));
        return Math.min(hi, uniform(random, lo, upper));
    };

    private Jitters() {
    }

    /**
     * No jitter: the back-off's delay as is.
     *
     * @return the strategy
     */
    public static Jitter none() {
        return NONE;
    }

    /**
     * Full jitter, the default: anywhere between zero and the back-off's delay.
     *
     * @return the strategy
     */
    public static Jitter full() {
        return FULL;
    }

    /**
     * Equal jitter: half the delay fixed, half random.
     *
     * @return the strategy
     */
    public static Jitter equal() {
        return EQUAL;
    }

    /**
     * Decorrelated jitter: each delay drawn from the initial delay up to three times the previous.
     *
     * @return the strategy
     */
    public static Jitter decorrelated() {
        return DECORRELATED;
    }

    /**
     * Proportional jitter: the delay ± {@code factor} of itself.
     *
     * @param factor between 0 and 1
     * @return the strategy
     */
    public static Jitter proportional(double factor) {
        if (!(factor >= 0.0 && factor <= 1.0)) {
            throw new InvalidSettingException("jitterFactor", "must be between 0 and 1", factor);
        }
        return (base, previous, backOff, random) -> {
            long spread = (long) (base * factor);
            return uniform(random, base - spread, base + spread);
        };
    }

    private static long uniform(RandomGenerator random, long lo, long hi) {
        return hi <= lo ? lo : random.nextLong(lo, hi + 1);
    }

    private static long saturatedTimes3(long value) {
        return value > Long.MAX_VALUE / 3 ? Long.MAX_VALUE : value * 3;
    }
}
