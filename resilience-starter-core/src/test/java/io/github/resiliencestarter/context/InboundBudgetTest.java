package io.github.resiliencestarter.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class InboundBudgetTest {

    private static final Duration CAP = Duration.ofSeconds(30);

    @Test
    void theSmallestOfTheThreeHeadersWins() {
        assertThat(InboundBudget.smallest("900", "500m", "700", CAP)).isEqualTo(Duration.ofMillis(500));
        assertThat(InboundBudget.smallest("300", "1S", "700", CAP)).isEqualTo(Duration.ofMillis(300));
        assertThat(InboundBudget.smallest("900", null, "250", CAP)).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void grpcTimeoutUnitsAreAllUnderstood() {
        assertThat(InboundBudget.smallest(null, "2H", null, null)).isEqualTo(Duration.ofHours(2));
        assertThat(InboundBudget.smallest(null, "3M", null, null)).isEqualTo(Duration.ofMinutes(3));
        assertThat(InboundBudget.smallest(null, "4S", null, null)).isEqualTo(Duration.ofSeconds(4));
        assertThat(InboundBudget.smallest(null, "5m", null, null)).isEqualTo(Duration.ofMillis(5));
        assertThat(InboundBudget.smallest(null, "6u", null, null)).isEqualTo(Duration.ofNanos(6_000));
        assertThat(InboundBudget.smallest(null, "7n", null, null)).isEqualTo(Duration.ofNanos(7));
    }

    @Test
    void absurdlyLargeValuesAreCapped() {
        assertThat(InboundBudget.smallest("999999999999", null, null, CAP)).isEqualTo(CAP);
        assertThat(InboundBudget.smallest(null, "99999999H", null, CAP)).isEqualTo(CAP);
    }

    @Test
    void zeroIsAValidSpentBudget() {
        assertThat(InboundBudget.smallest("0", null, null, CAP)).isEqualTo(Duration.ZERO);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "-5", "abc", "1.5", "12ms", "1e3", "9999999999999", "5\r\nX-Evil: 1"})
    void malformedMillisecondValuesAreIgnored(String value) {
        assertThat(InboundBudget.smallest(value, null, null, CAP)).isNull();
        assertThat(InboundBudget.smallest(null, null, value, CAP)).isNull();
        assertThat(InboundBudget.smallest(value, null, "400", CAP)).isEqualTo(Duration.ofMillis(400));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "S", "10", "10s", "10x", "123456789S", "-1S", "1.5S", "10 S"})
    void malformedGrpcTimeoutsAreIgnored(String value) {
        assertThat(InboundBudget.smallest(null, value, null, CAP)).isNull();
    }

    @Test
    void noHeaderMeansNoBudget() {
        assertThat(InboundBudget.smallest(null, null, null, CAP)).isNull();
    }

    @Test
    void aGrpcTimeoutThatFitsInALongOfNanosecondsIsExactAndOneUnitMoreIsClamped() {
        long hours = Long.MAX_VALUE / 3_600_000_000_000L;

        assertThat(InboundBudget.parseGrpcTimeoutNanos(hours + "H")).isEqualTo(hours * 3_600_000_000_000L)
                .isLessThan(Long.MAX_VALUE);
        assertThat(InboundBudget.parseGrpcTimeoutNanos((hours + 1) + "H")).isEqualTo(Long.MAX_VALUE);
    }
}
