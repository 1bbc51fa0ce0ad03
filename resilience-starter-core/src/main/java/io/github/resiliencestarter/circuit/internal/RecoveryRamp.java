package io.github.resiliencestarter.circuit.internal;

/**
 * The gradual recovery after a circuit closes: over the warm-up window the share of calls
 * admitted rises linearly from the start share to all of them. Admission is spread evenly, not
 * drawn at random: each call adds the current share to a credit and goes through when the credit
 * reaches one call, so at 10 % exactly one call in ten is admitted, whatever the load.
 *
 * <p>Costs one volatile read per call once the ramp is over; the lock is taken only while it runs.
 */
public final class RecoveryRamp {

    private final long warmUpNanos;

    private final double startShare;

    private volatile boolean active;

    private long startedAt;

    private double credit;

    /**
     * Creates a ramp, not running.
     *
     * @param warmUpNanos the ramp's length; 0 never ramps
     * @param startShare the share admitted when it starts, above 0 and at most 1
     */
    public RecoveryRamp(long warmUpNanos, double startShare) {
        this.warmUpNanos = warmUpNanos;
        this.startShare = startShare;
    }

    /**
     * Starts the ramp, when it has a length.
     *
     * @param now the current time in nanoseconds
     * @return {@code true} when it runs
     */
    public synchronized boolean start(long now) {
        if (warmUpNanos <= 0) {
            return false;
        }
        startedAt = now;
        credit = 1; // the first call after closing goes through
        active = true;
        return true;
    }

    /** Stops the ramp (the circuit opened again). */
    public void stop() {
        active = false;
    }

    /**
     * Whether the ramp may still refuse calls; when {@code false}, {@link #admit} need not be asked.
     *
     * @return {@code true} while it runs
     */
    public boolean active() {
        return active;
    }

    /**
     * Whether the ramp still runs at {@code now}: started, not stopped, its window not yet over
     * (the flag itself is cleared only by the next admission after the window).
     *
     * @param now the current time in nanoseconds
     * @return {@code true} while it runs
     */
    public synchronized boolean runningAt(long now) {
        return active && now - startedAt < warmUpNanos;
    }

    /**
     * Whether a call is admitted now.
     *
     * @param now the current time in nanoseconds
     * @return {@link Admission#ADMITTED}, {@link Admission#REJECTED}, or {@link Admission#FINISHED}
     *     when the window has passed (the call is admitted and the ramp ends)
     */
    public synchronized Admission admit(long now) {
        if (!active) {
            return Admission.ADMITTED;
        }
        long elapsed = now - startedAt;
        if (elapsed >= warmUpNanos) {
            active = false;
            return Admission.FINISHED;
        }
        credit += shareAt(elapsed);
        if (credit >= 1) {
            credit -= 1;
            return Admission.ADMITTED;
        }
        return Admission.REJECTED;
    }

    /**
     * The share of calls admitted now.
     *
     * @param now the current time in nanoseconds
     * @return a share above 0 and at most 1; 1 when the ramp does not run
     */
    public synchronized double share(long now) {
        return active ? Math.min(1, shareAt(now - startedAt)) : 1;
    }

    private double shareAt(long elapsed) {
        return startShare + (1 - startShare) * Math.max(0, elapsed) / warmUpNanos;
    }

    /** The ramp's answer for one call. */
    public enum Admission {

        /** The call goes through. */
        ADMITTED,

        /** The call is above the share admitted so far. */
        REJECTED,

        /** The window has passed: the call goes through, and so will every other. */
        FINISHED
    }
}
