package io.github.resiliencestarter.retry.backoff;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * {@code initial × multiplier^(retry-1)}, capped at {@code max}.
 *
 * @param initial the first delay
 * @param multiplier growth per retry, at least 1
 * @param max the largest delay
 */
public record ExponentialBackOff(Duration initial, double multiplier, Duration max) implements BackOff {

    /** Default first delay: 100 ms. */
    public static final Duration DEFAULT_INITIAL = Duration.ofMillis(100);

    /** Default growth per retry: ×2. */
    public static final double DEFAULT_MULTIPLIER = 2.0;

    /** Default cap: 1 s. */
    public static final Duration DEFAULT_MAX = Duration.ofSeconds(1);

    /**
     * Validates the settings.
     *
     * @param initial the first delay, not negative
     * @param multiplier at least 1
     * @param max at least {@code initial}
     */
    public ExponentialBackOff {
        BackOffs.checkRange(initial, max);
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new InvalidSettingException("multiplier", "must be a finite number of at least 1", multiplier);
        }
    }

    /**
     * The default: 100 ms, ×2, capped at 1 s.
     *
     * @return the default back-off
     */
    public static ExponentialBackOff ofDefaults() {
        return new ExponentialBackOff(DEFAULT_INITIAL, DEFAULT_MULTIPLIER, DEFAULT_MAX);
    }

    @Override
    public long delayNanos(int retry, RandomGenerator random) {
        double delay = initial.toNanos() * Math.pow(multiplier, Math.max(0, retry - 1));
        return delay >= max.toNanos() ? max.toNanos() : (long) delay;
    }

    @Override
    public long initialNanos() {
        return initial.toNanos();
    }

    @Override
    public long maxNanos() {
        return max.toNanos();
    }
}
