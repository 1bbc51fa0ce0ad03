package io.github.resiliencestarter.retry.backoff;

import java.util.random.RandomGenerator;

/**
 * Spreads retry delays so that clients that failed together do not retry together (rule R-4).
 * Implementations are immutable and thread-safe; see {@code retry.support.Jitters}.
 */
@FunctionalInterface
public interface Jitter {

    /**
     * The delay to actually wait.
     *
     * @param baseNanos the back-off's delay for this retry
     * @param previousNanos the delay actually waited before the previous retry (0 before the first)
     * @param backOff the back-off, for its bounds
     * @param random the random source
     * @return the delay in nanoseconds, never negative
     */
    long apply(long baseNanos, long previousNanos, BackOff backOff, RandomGenerator random);
}
