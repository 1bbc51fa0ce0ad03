package io.github.resiliencestarter.context;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.testsupport.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The deadline's arithmetic on a clock the test moves (rules T-1, C-1): the earlier of two wins, a
 * JDBC query timeout rounds up to whole seconds and is 0 only once nothing is left.
 */
class DeadlineArithmeticTest {

    private final ManualTime time = new ManualTime(5_000_000L);

    @Test
    void T1_theEarlierOfTwoDeadlinesGovernsAndAMissingOneDefersToTheOther() {
        Deadline soon = Deadline.after(Duration.ofMillis(100), time);
        Deadline late = Deadline.after(Duration.ofMillis(200), time);
        Deadline alsoSoon = Deadline.after(Duration.ofMillis(100), time);

        assertThat(Deadline.earlierOf(soon, late)).isSameAs(soon);
        assertThat(Deadline.earlierOf(late, soon)).isSameAs(soon);
        assertThat(Deadline.earlierOf(soon, alsoSoon)).as("a tie keeps the first").isSameAs(soon);
        assertThat(Deadline.earlierOf(null, late)).isSameAs(late);
        assertThat(Deadline.earlierOf(soon, null)).isSameAs(soon);
        assertThat(Deadline.earlierOf(null, null)).isNull();
    }

    @Test
    void C1_aQueryTimeoutRoundsUpToWholeSecondsAndIsZeroOnlyWhenNothingIsLeft() {
        Deadline deadline = Deadline.after(Duration.ofMillis(2_500), time);
        assertThat(deadline.remainingQueryTimeoutSeconds()).isEqualTo(3);

        time.advance(500);
        assertThat(deadline.remainingQueryTimeoutSeconds()).as("exactly 2 s left").isEqualTo(2);

        time.advance(1_999);
        assertThat(deadline.remainingQueryTimeoutSeconds()).as("1 ms left: never cut before it").isEqualTo(1);

        time.advance(1);
        assertThat(deadline.remainingQueryTimeoutSeconds()).isZero();
        assertThat(deadline.remainingMillis()).isZero();
        assertThat(deadline.isExpired()).isTrue();

        time.advance(1_000);
        assertThat(deadline.remainingQueryTimeoutSeconds()).isZero();
        assertThat(deadline.remaining()).isEqualTo(Duration.ZERO);
    }
}
