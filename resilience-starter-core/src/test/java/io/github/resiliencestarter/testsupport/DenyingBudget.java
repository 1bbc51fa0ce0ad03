package io.github.resiliencestarter.testsupport;

import io.github.resiliencestarter.retry.RetryBudget;
import java.util.concurrent.atomic.AtomicInteger;

/** A retry budget that denies every retry and counts how often it was asked. */
public final class DenyingBudget implements RetryBudget {

    private final AtomicInteger asked = new AtomicInteger();

    @Override
    public void recordCall() {
        // nothing to count: every retry is denied anyway
    }

    @Override
    public boolean tryAcquireRetry() {
        asked.incrementAndGet();
        return false;
    }

    /**
     * How often a retry was asked for.
     *
     * @return the count
     */
    public int asked() {
        return asked.get();
    }
}
