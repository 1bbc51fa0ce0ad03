package io.github.resiliencestarter.retry.support;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.retry.RetryBudget;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Allows retries while, over a sliding window, {@code retries ≤ percent / 100 × calls + floor ×
 * seconds}. The floor keeps rarely called operations retryable; the percentage caps the extra load
 * a sick downstream receives at {@code 1 + percent / 100} times its calls. Shares are percentages
 * throughout the starter (0 to 100).
 *
 * <p>The window is a ring of one-second buckets. Recording a call touches one striped counter,
 * so the success path stays cheap under contention; on the system clock it reads the current
 * second from a field a ticker thread refreshes rather than the clock itself. The count is
 * approximate at bucket edges, which is fine for a load limit.
 */
public final class RatioRetryBudget implements RetryBudget {

    /** Default share of retries among calls, in percent. */
    public static final double DEFAULT_PERCENT = 10;

    /** Default retries always allowed per second of window, whatever the share. */
    public static final int DEFAULT_MIN_RETRIES_PER_SECOND = 3;

    /** Default window. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    private static final long SECOND_NANOS = 1_000_000_000L;

    private final double ratio;

    private final int minRetriesPerSecond;

    private final Bucket[] buckets;

    private final TimeSource time;

    /** The bucket the last call counted into; racy on purpose, it is only a shortcut checked against its second. */
    private Bucket latest;

    /**
     * A budget with the defaults: 10 % plus 3 per second over 10 s.
     *
     * @return the budget
     */
    public static RatioRetryBudget ofDefaults() {
        return new RatioRetryBudget(DEFAULT_PERCENT, DEFAULT_MIN_RETRIES_PER_SECOND, DEFAULT_WINDOW, TimeSource.SYSTEM);
    }

    /**
     * Creates a budget.
     *
     * @param percent retries allowed per hundred calls, between 0 and 100
     * @param minRetriesPerSecond retries always allowed per second of window
     * @param window the sliding window, at least one second
     * @param time the time source
     */
    public RatioRetryBudget(double percent, int minRetriesPerSecond, Duration window, TimeSource time) {
        if (!(percent >= 0.0 && percent <= 100.0)) {
            throw new InvalidSettingException("percent", "must be between 0 and 100", percent);
        }
        if (minRetriesPerSecond < 0) {
            throw new InvalidSettingException("minRetriesPerSecond", "must not be negative", minRetriesPerSecond);
        }
        if (window == null || window.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidSettingException("window", "must be at least 1s", window);
        }
        this.ratio = percent / 100;
        this.minRetriesPerSecond = minRetriesPerSecond;
        this.time = time;
        int seconds = (int) Math.min(3600, window.toSeconds());
        this.buckets = new Bucket[seconds];
        for (int i = 0; i < seconds; i++) {
            buckets[i] = new Bucket();
        }
        this.latest = buckets[0];
    }

    @Override
    public void recordCall() {
        current().calls.increment();
    }

    @Override
    public synchronized boolean tryAcquireRetry() {
        long[] counts = snapshot();
        double allowed = ratio * counts[0] + (double) minRetriesPerSecond * buckets.length;
        if (counts[1] + 1 > allowed) {
            return false;
        }
        current().retries.increment();
        return true;
    }

    /**
     * Calls and retries counted in the current window, for the actuator endpoint.
     *
     * @return {@code [calls, retries]}
     */
    public long[] snapshot() {
        long now = second();
        long calls = 0;
        long retries = 0;
        for (Bucket bucket : buckets) {
            if (now - bucket.second.get() < buckets.length) {
                calls += bucket.calls.sum();
                retries += bucket.retries.sum();
            }
        }
        return new long[] {calls, retries};
    }

    private long second() {
        // the system clock through the ticker's field: no clock read on the path of every call
        return time == TimeSource.SYSTEM ? CoarseSeconds.current() : Math.floorDiv(time.nanoTime(), SECOND_NANOS);
    }

    private Bucket current() {
        long now = second();
        Bucket latest = this.latest;
        if (latest.second.get() == now) {
            return latest; // the common case: the same second as the last call, no division to find it
        }
        Bucket bucket = buckets[(int) Math.floorMod(now, (long) buckets.length)];
        this.latest = bucket;
        long seen = bucket.second.get();
        if (seen != now && bucket.second.compareAndSet(seen, now)) {
            // first touch in a new second: the bucket's old counts belong to a second outside the window
            bucket.calls.reset();
            bucket.retries.reset();
        }
        return bucket;
    }

    private static final class Bucket {

        final AtomicLong second = new AtomicLong(Long.MIN_VALUE / 2);

        final LongAdder calls = new LongAdder();

        final LongAdder retries = new LongAdder();
    }
}
