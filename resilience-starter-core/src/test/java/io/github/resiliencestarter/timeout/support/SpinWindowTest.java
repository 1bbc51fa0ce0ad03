package io.github.resiliencestarter.timeout.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
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
    void aSpinEndsAsSoonAsWhatItWaitsForHolds() {
        SpinWindow window = new SpinWindow();
        window.handedOver(30 * MICROS, true);
        AtomicInteger looks = new AtomicInteger();
        BooleanSupplier third = warm(() -> looks.incrementAndGet() == 3, looks);

        boolean ready = window.spin(System.nanoTime(), Long.MAX_VALUE, third);

        assertThat(ready).isTrue();
        assertThat(looks).hasValue(3);
    }

    @Test
    void aSpinLooksUntilTheWindowIsOverAndNoLonger() {
        SpinWindow window = new SpinWindow();
        window.handedOver(30 * MICROS, true);
        AtomicInteger looks = new AtomicInteger();
        BooleanSupplier never = warm(() -> looks.incrementAndGet() < 0, looks);
        long start = System.nanoTime();

        boolean ready = window.spin(start, Long.MAX_VALUE, never);

        assertThat(ready).isFalse();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(45 * MICROS);
        assertThat(looks.get()).isGreaterThan(1);
    }

    @Test
    void aSpinNeverOutlastsTheWaitsOwnLimit() {
        SpinWindow window = new SpinWindow();
        window.handedOver(30 * MICROS, true);
        AtomicInteger looks = new AtomicInteger();

        boolean ready = window.spin(System.nanoTime(), 0, () -> looks.incrementAndGet() < 0);

        assertThat(ready).isFalse();
        assertThat(looks).as("one look, then the limit").hasValue(1);
    }

    @Test
    void aTimedWaitThatEndsWithoutATaskHalvesTheWindow() {
        SpinWindow window = new SpinWindow();

        window.gaveUp();

        assertThat(window.nanos()).isEqualTo(SpinWindow.INITIAL_NANOS / 2);
    }

    /** Calls the condition once, so its first look in a spin is not its class's first call, and resets the count. */
    private static BooleanSupplier warm(BooleanSupplier condition, AtomicInteger looks) {
        condition.getAsBoolean();
        looks.set(0);
        return condition;
    }
}
