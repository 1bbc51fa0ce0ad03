package io.github.resiliencestarter.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A deadline written as an absolute expiry by a sender and read back by a consumer. */
class MessageDeadlineTest {

    private static final long NOW = 1_800_000_000_000L;

    private static final Duration MAX = Duration.ofMinutes(5);

    @Test
    void aSenderWritesNowPlusWhatIsLeftAndNothingWithoutADeadline() {
        ManualTime time = new ManualTime(0);
        assertThat(MessageDeadline.expiryOf(Deadline.after(Duration.ofMillis(1_500), time), NOW))
                .isEqualTo(Long.toString(NOW + 1_500));
        assertThat(MessageDeadline.expiryOf(null, NOW)).isNull();
    }

    @Test
    void aSpentDeadlineIsWrittenAsNowNotInThePast() {
        ManualTime time = new ManualTime(0);
        Deadline deadline = Deadline.after(Duration.ofMillis(10), time);
        time.advance(50);
        assertThat(MessageDeadline.expiryOf(deadline, NOW)).isEqualTo(Long.toString(NOW));
    }

    @Test
    void aConsumerGetsWhatIsLeftZeroOnceExpiredAndNoMoreThanTheCap() {
        assertThat(MessageDeadline.remaining(Long.toString(NOW + 2_000), NOW, MAX)).isEqualTo(Duration.ofSeconds(2));
        assertThat(MessageDeadline.remaining(Long.toString(NOW), NOW, MAX)).isZero();
        assertThat(MessageDeadline.remaining(Long.toString(NOW - 1), NOW, MAX)).isZero();
        assertThat(MessageDeadline.remaining(" " + (NOW + 2_000) + " ", NOW, MAX)).isEqualTo(Duration.ofSeconds(2));
        assertThat(MessageDeadline.remaining(Long.toString(NOW + 3_600_000), NOW, MAX)).isEqualTo(MAX);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "-5", "12ab", "1.5", "9999999999999999", "0x10"})
    void aMalformedExpiryCountsAsNone(String expiry) {
        assertThat(MessageDeadline.remaining(expiry, NOW, MAX)).isNull();
    }

    @Test
    void noExpiryIsNone() {
        assertThat(MessageDeadline.remaining(null, NOW, MAX)).isNull();
    }
}
