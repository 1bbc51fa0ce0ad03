package io.github.resiliencestarter.timeout.support;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How long a thread waiting for a hand-over looks for it before it parks, learnt from how long
 * recent waits took: an idle worker of a {@link DirectHandoffQueue} waiting for its next task, and
 * an {@code OFFLOAD} caller waiting for its worker's result.
 *
 * <p>Spinning pays only when the next task comes sooner than parking and waking would take. A
 * fixed number of checks is a different time on every machine: 128 pause hints covered a caller
 * offloading call after call on one machine of the project's kind and ran out on a slower one, where
 * every call then paid the spin, the park and the wake (docs/internals/benchmarks.md, issue 49). So
 * the window is a time, and it follows the waits: a task that came after the worker had parked,
 * but within {@link #MAX_NANOS}, widens the window to half as long again as that wait; a wait
 * longer than that, or one that ended without a task, halves it. Under a trickle the window shrinks
 * towards nothing and idle workers park at once; back-to-back offloading keeps it just wider than
 * the gap. Updates race without harm: the window is a hint.
 *
 * <p>A spin yields every {@value #SPINS_PER_YIELD} pause hints (about 3 µs on the project's
 * machine), so the thread it waits for, when it is ready on the same core, is not held up.
 */
public final class SpinWindow {

    /** Pause hints between two yields of a spinning thread. */
    static final int SPINS_PER_YIELD = 64;

    /** The longest a worker spins: beyond it, parking and waking costs less than the spin. */
    static final long MAX_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /** The window before any wait has been seen. */
    static final long INITIAL_NANOS = TimeUnit.MICROSECONDS.toNanos(5);

    private volatile long nanos = INITIAL_NANOS;

    /**
     * How long a thread that starts waiting now spins before it parks.
     *
     * @return the window in nanoseconds
     */
    public long nanos() {
        return nanos;
    }

    /**
     * Spins until {@code ready} holds or the window is over. Interrupts are not looked at: the
     * park that may follow does that.
     *
     * @param start when the wait began ({@link System#nanoTime()})
     * @param limitNanos the longest the wait may take, when shorter than the window
     * @param ready what the wait is for
     * @return whether {@code ready} holds; {@code false} once the window is over
     */
    public boolean spin(long start, long limitNanos, BooleanSupplier ready) {
        long until = start + Math.min(nanos, limitNanos);
        for (int spins = 1; !ready.getAsBoolean(); spins++) {
            if (System.nanoTime() - until >= 0) {
                return false;
            }
            if (spins % SPINS_PER_YIELD == 0) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
        return true;
    }

    /**
     * A wait ended with what it waited for.
     *
     * @param waitedNanos how long it waited
     * @param parked whether it had parked, i.e. the window was too short for this wait
     */
    public void handedOver(long waitedNanos, boolean parked) {
        if (!parked) {
            return; // caught while spinning: the window was wide enough
        }
        if (waitedNanos <= MAX_NANOS) {
            nanos = Math.min(MAX_NANOS, waitedNanos + waitedNanos / 2);
        } else {
            nanos = nanos / 2;
        }
    }

    /** A timed wait ended without what it waited for: hand-overs come slower than any spin is worth. */
    public void gaveUp() {
        nanos = nanos / 2;
    }
}
