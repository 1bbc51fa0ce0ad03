package io.github.resiliencestarter.retry.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The retry budget's arithmetic on a clock the test moves (rule R-6): the allowance is percent / 100 × calls
 * plus the floor per second of the window, a second leaves the window exactly when it is a window
 * old, and a reused bucket starts from zero.
 */
class RatioRetryBudgetTest {

    /** Whole seconds, so every bucket boundary is exact. */
    private final ManualTime time = new ManualTime(1_000_000_000L);

    private static int drain(RatioRetryBudget budget) {
        int granted = 0;
        while (granted < 10_000 && budget.tryAcquireRetry()) {
            granted++;
        }
        return granted;
    }

    private static void calls(RatioRetryBudget budget, int count) {
        for (int i = 0; i < count; i++) {
            budget.recordCall();
        }
    }

    @Test
    void R6_theAllowanceIsTheRatioOfCallsPlusTheFloorPerSecondOfTheWindow() {
        RatioRetryBudget budget = new RatioRetryBudget(50, 1, Duration.ofSeconds(2), time);
        calls(budget, 10);

        // 50 % of 10 calls + 1 per second × 2 s
        assertThat(drain(budget)).isEqualTo(7);
        assertThat(budget.snapshot()).containsExactly(10, 7);
    }

    @Test
    void R6_aSecondLeavesTheWindowWhenItIsAWindowOld() {
        RatioRetryBudget budget = new RatioRetryBudget(100, 0, Duration.ofSeconds(2), time);
        calls(budget, 4);
        assertThat(drain(budget)).isEqualTo(4);

        time.advance(1_000);
        assertThat(budget.snapshot()).as("one second old: still in a 2 s window").containsExactly(4, 4);
        assertThat(budget.tryAcquireRetry()).isFalse();

        time.advance(1_000);
        assertThat(budget.snapshot()).as("two seconds old: out of the window").containsExactly(0, 0);
        calls(budget, 3);
        assertThat(drain(budget)).isEqualTo(3);
    }

    @Test
    void R6_aBucketReusedAWindowLaterStartsFromZero() {
        RatioRetryBudget budget = new RatioRetryBudget(100, 0, Duration.ofSeconds(2), time);
        calls(budget, 100);
        assertThat(drain(budget)).isEqualTo(100);

        // the same bucket again (second 2 of a 2 s ring): the old 100 calls and retries are gone
        time.advance(2_000);
        budget.recordCall();
        assertThat(budget.snapshot()).containsExactly(1, 0);
        assertThat(drain(budget)).isEqualTo(1);
    }

    @Test
    void R6_theFloorAloneAllowsItsRetriesWithoutCalls() {
        RatioRetryBudget budget = new RatioRetryBudget(0, 3, Duration.ofSeconds(1), time);

        assertThat(drain(budget)).isEqualTo(3);
    }

    @Test
    void R6_theSettingsAcceptTheirBoundsAndRefuseWhatLiesBeyond() {
        // the bounds themselves are valid
        assertThat(drain(new RatioRetryBudget(0, 0, Duration.ofSeconds(1), time))).isZero();
        RatioRetryBudget everyCall = new RatioRetryBudget(100, 0, Duration.ofSeconds(1), time);
        calls(everyCall, 5);
        assertThat(drain(everyCall)).isEqualTo(5);

        assertThatThrownBy(() -> new RatioRetryBudget(-1, 0, Duration.ofSeconds(1), time))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("percent");
        assertThatThrownBy(() -> new RatioRetryBudget(101, 0, Duration.ofSeconds(1), time))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("percent");
        assertThatThrownBy(() -> new RatioRetryBudget(10, -1, Duration.ofSeconds(1), time))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("minRetriesPerSecond");
        assertThatThrownBy(() -> new RatioRetryBudget(10, 0, Duration.ofMillis(999), time))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("window");
    }
}
