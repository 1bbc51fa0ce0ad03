package io.github.resiliencestarter.retry.backoff;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * A delay drawn uniformly from {@code [min, max]} before every retry.
 *
 * @param min the smallest delay
 * @param max the largest delay
 */
public record UniformRandomBackOff(Duration min, Duration max) implements BackOff {

    /**
     * Validates the range.
     *
     * @param min not negative
     * @param max at least {@code min}
     */
    public UniformRandomBackOff {
        BackOffs.checkRange(min, max);
    }

    @Override
    public long delayNanos(int retry, RandomGenerator random) {
        long lo = min.toNanos();
        long hi = max.toNanos();
        return lo == hi ? lo : random.nextLong(lo, hi + 1);
    }

    @Override
    public long initialNanos() {
        return min.toNanos();
    }

    @Override
    public long maxNanos() {
        return max.toNanos();
    }
}
