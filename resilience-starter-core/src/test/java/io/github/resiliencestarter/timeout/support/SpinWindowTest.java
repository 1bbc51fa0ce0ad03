package io.github.resiliencestarter.timeout.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SpinWindowTest {

    private static final long MICROS = TimeUnit.MICROSECONDS.toNanos(1);

    @Test
    void aShortWaitThatParkedWidensTheWindowToHalfAgainThatWait() {
        SpinWindow window = new SpinWindow();

        window.handedOver(12 * MICROS, true);

        assertThat(window.nanos()).isEqualTo(18 * MICROS);
    }

    @Test
    void theWindowNeverPassesItsBound() {
        SpinWindow window = new SpinWindow();

        window.handedOver(45 * MICROS, true);

        assertThat(window.nanos()).isEqualTo(SpinWindow.MAX_NANOS);
    }

    @Test
    void aTaskCaughtWhileSpinningKeepsTheWindow() {
        SpinWindow window = new SpinWindow();
        window.handedOver(20 * MICROS, true);

        window.handedOver(2 * MICROS, false);

        assertThat(window.nanos()).isEqualTo(30 * MICROS);
    }

    @Test
    void underATrickleTheWindowShrinksToNothing() {
        SpinWindow window = new SpinWindow();
        window.handedOver(30 * MICROS, true);

        window.handedOver(TimeUnit.MILLISECONDS.toNanos(1), true);
        assertThat(window.nanos()).isEqualTo(22_500);
        for (int wait = 0; wait < 20; wait++) {
            window.handedOver(TimeUnit.SECONDS.toNanos(1), true);
        }

        assertThat(window.nanos()).isZero();
    }

    @Test
    void aTimedWaitThatEndsWithoutATaskHalvesTheWindow() {
        SpinWindow window = new SpinWindow();

        window.gaveUp();

        assertThat(window.nanos()).isEqualTo(SpinWindow.INITIAL_NANOS / 2);
    }
}
