package io.github.resiliencestarter.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for something that becomes true by itself (an expiry, a heartbeat, a background task),
 * polling up to a deadline far above what an idle machine needs: a machine with every core busy
 * makes such a test slower, never red. A test asserts the outcome, not how fast it came.
 */
public final class Eventually {

    /** Enough for a machine whose cores are all busy with something else. */
    public static final Duration GENEROUSLY = Duration.ofSeconds(30);

    private static final long POLL_MILLIS = 20;

    private Eventually() {
    }

    /**
     * Returns once {@code condition} holds, polling; fails after {@link #GENEROUSLY}.
     *
     * @param what what is awaited, for the failure message
     * @param condition the condition
     */
    public static void waitUntil(String what, BooleanSupplier condition) {
        long until = System.nanoTime() + GENEROUSLY.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                throw new AssertionError("not within " + GENEROUSLY.toSeconds() + " s: " + what);
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting until " + what, ex);
            }
        }
    }

    /**
     * Returns once the wall clock is past {@code epochMillis}: for a test that needs a lease or a
     * time to live to have run out, however late the thread is scheduled.
     *
     * @param what what has run out by then, for the failure message
     * @param epochMillis the instant to pass
     */
    public static void waitPast(String what, long epochMillis) {
        waitUntil(what, () -> System.currentTimeMillis() > epochMillis);
    }
}
