package io.github.resiliencestarter.context;

/**
 * The one source of time in the engine: a monotonic clock for budgets, waits and lease keeping,
 * and the wall clock for the few places that compare with another host's time (HTTP dates, store
 * records). Deadlines read only the monotonic clock, so clock steps and skew between hosts cannot
 * stretch or shrink a budget. Tests inject their own to move time without waiting.
 */
public interface TimeSource {

    /** The JVM's clocks: {@link System#nanoTime()} and {@link System#currentTimeMillis()}. */
    TimeSource SYSTEM = new TimeSource() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long epochMillis() {
            return System.currentTimeMillis();
        }
    };

    /**
     * Reads the monotonic clock.
     *
     * @return nanoseconds from an arbitrary but fixed origin
     */
    long nanoTime();

    /**
     * Reads the wall clock.
     *
     * @return milliseconds since the epoch
     */
    long epochMillis();
}
