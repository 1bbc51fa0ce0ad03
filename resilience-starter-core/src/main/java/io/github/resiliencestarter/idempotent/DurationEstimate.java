package io.github.resiliencestarter.idempotent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How long an operation's executions typically take: an exponentially weighted moving average of
 * recent successful durations, so a duplicate told to come back (409, {@code Retry-After}) is told
 * when the first call will likely be done, not when its lease would run out.
 */
final class DurationEstimate {

    /** Weight of the newest sample: one fifth, so a few slow calls move the estimate, one does not. */
    private static final int SMOOTHING = 5;

    private final AtomicLong averageNanos = new AtomicLong();

    void record(long nanos) {
        averageNanos.accumulateAndGet(Math.max(0, nanos),
                (average, sample) -> average == 0 ? sample : average + (sample - average) / SMOOTHING);
    }

    long typicalMillis() {
        return averageNanos.get() / 1_000_000;
    }
}
