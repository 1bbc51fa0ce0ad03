package io.github.resiliencestarter.core;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How long an operation's executions take: one percentile (the median, the p95, ...) of its most
 * recent durations, kept per operation by whoever needs it. The idempotency layer asks for the
 * median (when a duplicate should come back); hedging asks for a high percentile (when a call has
 * become slow enough to send a second one).
 *
 * <p>Lock-free: recording writes one slot of a ring of the last {@link #WINDOW} durations and
 * nothing else, so the operation being measured does not pay for the estimate. A read recomputes
 * the percentile from a copy of the ring (a selection, not a sort, into a buffer kept for it) when
 * {@value #REFRESH_EVERY} or more samples came since the last computation, and otherwise returns
 * that one; the idempotency layer reads only when a duplicate meets a call in progress, hedging on
 * every hedged call. Samples recorded concurrently with a refresh may be missed by it and counted
 * by the next, which is the precision an estimate needs.
 * Until {@code minSamples} durations were recorded there is no estimate ({@link #estimateNanos()}
 * is {@code -1}), so a caller falls back to a fixed value rather than trusting two samples.
 */
public final class DurationEstimate {

    /** How many recent durations the percentile is computed over. */
    public static final int WINDOW = 256;

    /** A read recomputes the percentile when this many samples came since it was last computed. */
    public static final int REFRESH_EVERY = 16;

    private static final int MASK = WINDOW - 1;

    private final double percentile;

    private final int minSamples;

    private final AtomicLongArray recent = new AtomicLongArray(WINDOW);

    private final AtomicLong recorded = new AtomicLong();

    private final AtomicReference<Estimate> estimate = new AtomicReference<>(new Estimate(0, -1));

    /** Held by the one thread refreshing, whose working copy of the ring is {@link #scratch}. */
    private final AtomicBoolean refreshing = new AtomicBoolean();

    private final long[] scratch = new long[WINDOW];

    private DurationEstimate(double percentile, int minSamples) {
        if (!(percentile > 0 && percentile < 100)) {
            throw new InvalidSettingException("percentile", "must be above 0 and below 100", percentile);
        }
        if (minSamples < 1 || minSamples > WINDOW) {
            throw new InvalidSettingException("minSamples", "must be between 1 and " + WINDOW, minSamples);
        }
        this.percentile = percentile;
        this.minSamples = minSamples;
    }

    /**
     * An estimate of the median, available from the first sample.
     *
     * @return a new estimate
     */
    public static DurationEstimate median() {
        return new DurationEstimate(50, 1);
    }

    /**
     * An estimate of a percentile.
     *
     * @param percentile above 0 and below 100, for example 95 for the p95
     * @param minSamples samples needed before there is an estimate, 1 to {@link #WINDOW}
     * @return a new estimate
     */
    public static DurationEstimate percentile(double percentile, int minSamples) {
        return new DurationEstimate(percentile, minSamples);
    }

    /**
     * Records one duration.
     *
     * @param nanos the duration; negative values count as zero
     */
    public void record(long nanos) {
        long index = recorded.getAndIncrement();
        // 0 marks a slot not written yet: a real zero is stored as 1 ns
        recent.set((int) (index & MASK), Math.max(1, nanos));
    }

    /**
     * The percentile of the recent durations.
     *
     * @return nanoseconds, or {@code -1} while fewer than {@code minSamples} durations were recorded
     */
    public long estimateNanos() {
        Estimate current = estimate.get();
        long count = recorded.get();
        if (count - current.samples >= REFRESH_EVERY || (count != current.samples
                && (count <= REFRESH_EVERY || current.samples < minSamples))) {
            refresh(count);
            current = estimate.get();
        }
        return current.samples >= minSamples ? current.nanos : -1;
    }

    /**
     * How many durations were recorded since creation.
     *
     * @return the count
     */
    public long samples() {
        return recorded.get();
    }

    /** The percentile estimated, for example 95. @return the percentile */
    public double percentile() {
        return percentile;
    }

    /** Samples needed before there is an estimate. @return the count */
    public int minSamples() {
        return minSamples;
    }

    private void refresh(long count) {
        if (!refreshing.compareAndSet(false, true)) {
            return; // another thread is refreshing: the next refresh counts these samples
        }
        try {
            int filled = (int) Math.min(count, WINDOW);
            long[] copy = scratch;
            int n = 0;
            for (int i = 0; i < filled; i++) {
                long value = recent.get(i);
                if (value > 0) {
                    copy[n++] = value;
                }
            }
            if (n == 0) {
                return;
            }
            int rank = (int) Math.ceil(percentile / 100 * n) - 1;
            Estimate fresh = new Estimate(count, select(copy, n, Math.max(0, Math.min(n - 1, rank))));
            // a slower refresh of fewer samples must not overwrite a newer one
            estimate.accumulateAndGet(fresh, (old, candidate) -> candidate.samples > old.samples ? candidate : old);
        } finally {
            refreshing.set(false);
        }
    }

    /**
     * The {@code k}-th smallest of the first {@code n} values (Hoare's selection): linear on
     * average, where sorting the window on every refresh cost several microseconds.
     */
    static long select(long[] values, int n, int k) {
        int low = 0;
        int high = n - 1;
        while (low < high) {
            long pivot = values[(low + high) >>> 1];
            int i = low;
            int j = high;
            while (i <= j) {
                while (values[i] < pivot) {
                    i++;
                }
                while (values[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    long swap = values[i];
                    values[i] = values[j];
                    values[j] = swap;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                high = j;
            } else if (k >= i) {
                low = i;
            } else {
                return values[k];
            }
        }
        return values[k];
    }

    @Override
    public String toString() {
        return "DurationEstimate[p" + percentile + "=" + estimateNanos() + "ns over " + samples() + " samples]";
    }

    private record Estimate(long samples, long nanos) {
    }
}
