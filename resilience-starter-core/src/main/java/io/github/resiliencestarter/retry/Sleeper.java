package io.github.resiliencestarter.retry;

/** Waits between attempts; replaceable so tests can run without real sleeps. */
@FunctionalInterface
public interface Sleeper {

    /** Sleeps with {@link Thread#sleep(long, int)}. */
    Sleeper SYSTEM = nanos -> Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));

    /**
     * Waits.
     *
     * @param nanos how long
     * @throws InterruptedException when interrupted while waiting
     */
    void sleep(long nanos) throws InterruptedException;
}
