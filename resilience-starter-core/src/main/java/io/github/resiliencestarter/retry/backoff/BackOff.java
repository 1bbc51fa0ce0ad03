package io.github.resiliencestarter.retry.backoff;

/**
 * The base delay before a retry, before jitter is applied. Implementations are immutable and
 * thread-safe; see {@code retry.support} for fixed, exponential and uniform random back-off.
 */
public interface BackOff {

    /**
     * The base delay before retry number {@code retry}.
     *
     * @param retry 1 for the first retry (after the first failed attempt), 2 for the second, ...
     * @param random the random source, for strategies that draw
     * @return the delay in nanoseconds, never negative
     */
    long delayNanos(int retry, java.util.random.RandomGenerator random);

    /**
     * The smallest delay this back-off produces; decorrelated jitter draws from here.
     *
     * @return nanoseconds
     */
    long initialNanos();

    /**
     * The largest delay this back-off produces; jitter never exceeds it.
     *
     * @return nanoseconds
     */
    long maxNanos();
}
