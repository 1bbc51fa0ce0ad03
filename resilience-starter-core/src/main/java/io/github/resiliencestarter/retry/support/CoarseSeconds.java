package io.github.resiliencestarter.retry.support;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The monotonic clock in whole seconds, read from a field that one daemon thread refreshes every
 * {@value #TICK_MILLIS} ms. The retry budget counts every call into the bucket of its second; a
 * field read instead of {@link System#nanoTime()} takes about 20 ns off every call, and a second
 * that starts up to one tick late moves a few calls into the neighbouring bucket, which a budget
 * over a ten-second window does not notice. Budgets on an injected clock read that clock instead.
 */
final class CoarseSeconds {

    /** How often the seconds are refreshed, in milliseconds. */
    static final long TICK_MILLIS = 20;

    private static volatile long seconds = now();

    static {
        Thread ticker = new Thread(CoarseSeconds::tick, "resilience-coarse-clock");
        ticker.setDaemon(true);
        ticker.start();
    }

    private CoarseSeconds() {
    }

    /**
     * The seconds of the monotonic clock, at most one tick old.
     *
     * @return {@link System#nanoTime()} divided by one second, rounded down
     */
    static long current() {
        return seconds;
    }

    private static void tick() {
        for (;;) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS));
            seconds = now();
        }
    }

    private static long now() {
        return Math.floorDiv(System.nanoTime(), 1_000_000_000L);
    }
}
