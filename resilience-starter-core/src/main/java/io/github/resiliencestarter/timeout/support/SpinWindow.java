package io.github.resiliencestarter.timeout.support;

import java.util.concurrent.TimeUnit;

/**
 * How long an idle worker of a {@link DirectHandoffQueue} looks for its next task before it
 * parks, learnt from how long the queue's workers recently waited.
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
 */
final class SpinWindow {

    /** The longest a worker spins: beyond it, parking and waking costs less than the spin. */
    static final long MAX_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /** The window before any wait has been seen. */
    static final long INITIAL_NANOS = TimeUnit.MICROSECONDS.toNanos(5);

    private volatile long nanos = INITIAL_NANOS;

    /** How long a worker that starts waiting now spins before it parks. */
    long nanos() {
        return nanos;
    }

    /**
     * A worker's wait ended with a task.
     *
     * @param waitedNanos how long it waited
     * @param parked whether it had parked, i.e. the window was too short for this wait
     */
    void handedOver(long waitedNanos, boolean parked) {
        if (!parked) {
            return; // caught while spinning: the window was wide enough
        }
        if (waitedNanos <= MAX_NANOS) {
            nanos = Math.min(MAX_NANOS, waitedNanos + waitedNanos / 2);
        } else {
            nanos = nanos / 2;
        }
    }

    /** A timed wait ended without a task: tasks come slower than any spin is worth. */
    void gaveUp() {
        nanos = nanos / 2;
    }
}
