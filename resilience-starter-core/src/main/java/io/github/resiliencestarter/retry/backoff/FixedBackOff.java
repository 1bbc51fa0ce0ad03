package io.github.resiliencestarter.retry.backoff;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The same delay before every retry.
 *
 * @param delay the delay
 */
public record FixedBackOff(Duration delay) implements BackOff {

    /**
     * Validates the delay.
     *
     * @param delay the delay, not negative
     */
    public FixedBackOff {
        if (delay == null || delay.isNegative()) {
            throw new InvalidSettingException("delay", "must not be negative", delay);
        }
    }

    @Override
    public long delayNanos(int retry, RandomGenerator random) {
        return delay.toNanos();
    }

    @Override
    public long initialNanos() {
        return delay.toNanos();
    }

    @Override
    public long maxNanos() {
        return delay.toNanos();
    }
}
