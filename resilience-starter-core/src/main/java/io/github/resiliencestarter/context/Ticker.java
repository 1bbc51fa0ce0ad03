package io.github.resiliencestarter.context;

/**
 * A monotonic nanosecond source. Deadlines never read wall-clock time, so clock steps and skew
 * between hosts cannot stretch or shrink a budget.
 */
@FunctionalInterface
public interface Ticker {

    /** The JVM's monotonic clock, {@link System#nanoTime()}. */
    Ticker SYSTEM = System::nanoTime;

    /**
     * Reads the ticker.
     *
     * @return nanoseconds from an arbitrary but fixed origin
     */
    long read();
}
