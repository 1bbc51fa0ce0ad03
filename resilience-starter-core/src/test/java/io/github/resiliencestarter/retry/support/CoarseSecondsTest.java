package io.github.resiliencestarter.retry.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.testsupport.Eventually;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The budget's seconds on the system clock follow the clock, and the budget still counts every call. */
class CoarseSecondsTest {

    @Test
    void theTickerKeepsUpWithTheMonotonicClock() {
        long target = Math.floorDiv(System.nanoTime(), 1_000_000_000L) + 1;
        // a new second shows within a tick or so of starting (generous: the machine may be loaded)
        Eventually.waitUntil("the coarse seconds reach " + target, () -> CoarseSeconds.current() >= target);
        assertThat(CoarseSeconds.current()).isLessThanOrEqualTo(Math.floorDiv(System.nanoTime(), 1_000_000_000L));
    }

    @Test
    void aBudgetOnTheSystemClockCountsItsCallsInTheWindow() {
        RatioRetryBudget budget = new RatioRetryBudget(50, 0, Duration.ofSeconds(10),
                io.github.resiliencestarter.context.TimeSource.SYSTEM);
        for (int i = 0; i < 100; i++) {
            budget.recordCall();
        }
        int granted = 0;
        while (granted < 1_000 && budget.tryAcquireRetry()) {
            granted++;
        }
        // half of 100 calls, give or take the calls a second boundary moved out of the window (none in 10 s)
        assertThat(granted).isEqualTo(50);
    }
}
