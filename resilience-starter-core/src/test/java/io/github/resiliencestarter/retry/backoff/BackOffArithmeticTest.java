package io.github.resiliencestarter.retry.backoff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * The back-offs' and jitters' exact values at the ends of their ranges (rule R-4), with a random
 * source that always draws its lowest or its highest value, and how an annotation overrides parts
 * of a configured back-off.
 */
class BackOffArithmeticTest {

    /** Always the lowest value of the range asked for. */
    private static final RandomGenerator LOWEST = new Drawing(false);

    /** Always the highest value of the range asked for (its bound is exclusive). */
    private static final RandomGenerator HIGHEST = new Drawing(true);

    private record Drawing(boolean highest) implements RandomGenerator {

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException("only ranges are drawn");
        }

        @Override
        public long nextLong(long origin, long bound) {
            return highest ? bound - 1 : origin;
        }
    }

    private static long millis(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }

    @Test
    void R4_anExponentialBackOffMultipliesFromItsFirstDelayUpToItsCap() {
        ExponentialBackOff backOff = new ExponentialBackOff(Duration.ofMillis(100), 3.0, Duration.ofMillis(1_000));

        assertThat(millis(backOff.delayNanos(0, LOWEST))).isEqualTo(100);
        assertThat(millis(backOff.delayNanos(1, LOWEST))).isEqualTo(100);
        assertThat(millis(backOff.delayNanos(2, LOWEST))).isEqualTo(300);
        assertThat(millis(backOff.delayNanos(3, LOWEST))).isEqualTo(900);
        assertThat(millis(backOff.delayNanos(4, LOWEST))).isEqualTo(1_000);
        assertThat(millis(backOff.initialNanos())).isEqualTo(100);
        assertThat(millis(backOff.maxNanos())).isEqualTo(1_000);
    }

    @Test
    void R4_aFixedBackOffIsItsDelayEveryTime() {
        FixedBackOff backOff = new FixedBackOff(Duration.ofMillis(250));

        assertThat(millis(backOff.delayNanos(5, HIGHEST))).isEqualTo(250);
        assertThat(millis(backOff.initialNanos())).isEqualTo(250);
        assertThat(millis(backOff.maxNanos())).isEqualTo(250);
    }

    @Test
    void R4_aRandomBackOffDrawsFromItsMinimumToItsMaximumBothIncluded() {
        UniformRandomBackOff backOff = new UniformRandomBackOff(Duration.ofMillis(50), Duration.ofMillis(80));

        assertThat(millis(backOff.delayNanos(1, LOWEST))).isEqualTo(50);
        assertThat(millis(backOff.delayNanos(1, HIGHEST))).isEqualTo(80);
        assertThat(millis(backOff.initialNanos())).isEqualTo(50);
        assertThat(millis(backOff.maxNanos())).isEqualTo(80);
        UniformRandomBackOff single = new UniformRandomBackOff(Duration.ofMillis(70), Duration.ofMillis(70));
        assertThat(millis(single.delayNanos(1, HIGHEST))).isEqualTo(70);
        assertThatThrownBy(() -> new UniformRandomBackOff(Duration.ofMillis(80), Duration.ofMillis(50)))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("maxDelay");
    }

    @Test
    void R4_proportionalJitterSpreadsTheDelayByItsFactorBothWays() {
        Jitter jitter = Jitters.proportional(0.2);
        BackOff backOff = new FixedBackOff(Duration.ofMillis(1_000));
        long base = Duration.ofMillis(1_000).toNanos();

        assertThat(millis(jitter.apply(base, 0, backOff, LOWEST))).isEqualTo(800);
        assertThat(millis(jitter.apply(base, 0, backOff, HIGHEST))).isEqualTo(1_200);
        // the bounds of the factor are valid, beyond them not
        assertThat(millis(Jitters.proportional(0.0).apply(base, 0, backOff, HIGHEST))).isEqualTo(1_000);
        assertThat(millis(Jitters.proportional(1.0).apply(base, 0, backOff, HIGHEST))).isEqualTo(2_000);
        assertThatThrownBy(() -> Jitters.proportional(1.01)).isInstanceOf(InvalidSettingException.class);
        assertThatThrownBy(() -> Jitters.proportional(-0.01)).isInstanceOf(InvalidSettingException.class);
    }

    @Test
    void R4_fullEqualAndDecorrelatedJitterReachBothEndsOfTheirRanges() {
        BackOff backOff = new ExponentialBackOff(Duration.ofMillis(100), 2.0, Duration.ofMillis(1_000));
        long base = Duration.ofMillis(400).toNanos();

        assertThat(millis(Jitters.full().apply(base, 0, backOff, LOWEST))).isZero();
        assertThat(millis(Jitters.full().apply(base, 0, backOff, HIGHEST))).isEqualTo(400);
        assertThat(millis(Jitters.equal().apply(base, 0, backOff, LOWEST))).isEqualTo(200);
        assertThat(millis(Jitters.equal().apply(base, 0, backOff, HIGHEST))).isEqualTo(400);
        // decorrelated: from the first delay up to three times the previous one, within the cap
        assertThat(millis(Jitters.decorrelated().apply(base, 0, backOff, HIGHEST))).isEqualTo(100);
        long previous = Duration.ofMillis(200).toNanos();
        assertThat(millis(Jitters.decorrelated().apply(base, previous, backOff, LOWEST))).isEqualTo(100);
        assertThat(millis(Jitters.decorrelated().apply(base, previous, backOff, HIGHEST))).isEqualTo(600);
        long large = Duration.ofMillis(900).toNanos();
        assertThat(millis(Jitters.decorrelated().apply(base, large, backOff, HIGHEST))).isEqualTo(1_000);
        assertThat(millis(Jitters.none().apply(base, large, backOff, HIGHEST))).isEqualTo(400);
    }

    @Test
    void R4_anOverrideWithNothingSetKeepsTheConfiguredBackOff() {
        BackOff base = new FixedBackOff(Duration.ofMillis(10));

        assertThat(BackOffs.override(base, null, null, null, null)).isSameAs(base);
        assertThat(BackOffs.override(base, BackOffType.DEFAULT, null, null, null)).isSameAs(base);
    }

    @Test
    void R4_anOverrideReplacesOnlyWhatItSets() {
        ExponentialBackOff exponential = new ExponentialBackOff(Duration.ofMillis(100), 3.0, Duration.ofSeconds(1));

        assertThat(BackOffs.override(exponential, null, Duration.ofMillis(200), null, null))
                .isEqualTo(new ExponentialBackOff(Duration.ofMillis(200), 3.0, Duration.ofSeconds(1)));
        assertThat(BackOffs.override(exponential, BackOffType.DEFAULT, null, Duration.ofSeconds(2), null))
                .isEqualTo(new ExponentialBackOff(Duration.ofMillis(100), 3.0, Duration.ofSeconds(2)));
        assertThat(BackOffs.override(exponential, null, null, null, 1.5))
                .isEqualTo(new ExponentialBackOff(Duration.ofMillis(100), 1.5, Duration.ofSeconds(1)));
        assertThat(BackOffs.override(new FixedBackOff(Duration.ofMillis(10)), null, Duration.ofMillis(30), null, null))
                .isEqualTo(new FixedBackOff(Duration.ofMillis(30)));
        assertThat(BackOffs.override(new UniformRandomBackOff(Duration.ofMillis(10), Duration.ofMillis(20)), null,
                null, Duration.ofMillis(50), null))
                .isEqualTo(new UniformRandomBackOff(Duration.ofMillis(10), Duration.ofMillis(50)));
    }

    @Test
    void R4_anOverriddenTypeStartsFromTheConfiguredDelaysAndTheDefaultMultiplier() {
        BackOff fixed = new FixedBackOff(Duration.ofMillis(40));

        assertThat(BackOffs.override(fixed, BackOffType.EXPONENTIAL, null, Duration.ofMillis(400), null))
                .isEqualTo(new ExponentialBackOff(Duration.ofMillis(40), ExponentialBackOff.DEFAULT_MULTIPLIER,
                        Duration.ofMillis(400)));
        assertThat(BackOffs.override(fixed, BackOffType.RANDOM, null, Duration.ofMillis(60), null))
                .isEqualTo(new UniformRandomBackOff(Duration.ofMillis(40), Duration.ofMillis(60)));
        assertThat(BackOffs.override(new ExponentialBackOff(Duration.ofMillis(5), 4.0, Duration.ofMillis(50)),
                BackOffType.FIXED, null, null, null)).isEqualTo(new FixedBackOff(Duration.ofMillis(5)));
    }

    @Test
    void R4_aLargerDelayThanTheInheritedCapRaisesTheCapButAnExplicitSmallerCapIsRefused() {
        ExponentialBackOff exponential = new ExponentialBackOff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1));

        assertThat(BackOffs.override(exponential, null, Duration.ofSeconds(2), null, null))
                .isEqualTo(new ExponentialBackOff(Duration.ofSeconds(2), 2.0, Duration.ofSeconds(2)));
        assertThat(BackOffs.override(exponential, null, Duration.ofSeconds(1), null, null))
                .as("a delay equal to the cap keeps it").isEqualTo(
                        new ExponentialBackOff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(1)));
        assertThatThrownBy(() -> BackOffs.override(exponential, null, Duration.ofSeconds(2), Duration.ofSeconds(1),
                null)).isInstanceOf(InvalidSettingException.class).hasMessageContaining("maxDelay");
    }

    @Test
    void R4_theRangeCheckNamesTheDelayOrTheCap() {
        assertThatThrownBy(() -> BackOffs.checkRange(Duration.ofMillis(-1), Duration.ofMillis(1)))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("delay");
        assertThatThrownBy(() -> BackOffs.checkRange(null, Duration.ofMillis(1)))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("delay");
        assertThatThrownBy(() -> BackOffs.checkRange(Duration.ofMillis(2), null))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("maxDelay");
        BackOffs.checkRange(Duration.ZERO, Duration.ZERO);
    }
}
