package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.context.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A time source and sleeper on simulated time: sleeping advances the clock, nothing really waits. */
final class FakeTime implements TimeSource, Sleeper {

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);

    final List<Long> sleeps = new ArrayList<>();

    @Override
    public long nanoTime() {
        return now.get();
    }

    @Override
    public long epochMillis() {
        return now.get() / 1_000_000L;
    }

    @Override
    public void sleep(long nanos) {
        sleeps.add(nanos);
        now.addAndGet(nanos);
    }

    void advanceMillis(long millis) {
        now.addAndGet(millis * 1_000_000L);
    }
}
