package io.github.resiliencestarter.testsupport;

import io.github.resiliencestarter.context.TimeSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test moves it; both readings derive from one millisecond count. */
public final class ManualTime implements TimeSource {

    private final AtomicLong millis;

    /**
     * A clock at the given time.
     *
     * @param startMillis the starting time in epoch milliseconds
     */
    public ManualTime(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    /**
     * Moves the clock forward.
     *
     * @param deltaMillis milliseconds to add
     * @return the new time in epoch milliseconds
     */
    public long advance(long deltaMillis) {
        return millis.addAndGet(deltaMillis);
    }

    @Override
    public long nanoTime() {
        return millis.get() * 1_000_000;
    }

    @Override
    public long epochMillis() {
        return millis.get();
    }
}
