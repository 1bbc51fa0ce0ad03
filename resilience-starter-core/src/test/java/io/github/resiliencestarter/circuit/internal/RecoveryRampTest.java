package io.github.resiliencestarter.circuit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.resiliencestarter.circuit.internal.RecoveryRamp.Admission;
import org.junit.jupiter.api.Test;

/**
 * The recovery ramp's arithmetic in nanoseconds the test chooses (rule R-6): the share rises
 * linearly over the window, admission follows the credit exactly, and a ramp of no length never
 * runs.
 */
class RecoveryRampTest {

    private static final long START = 1_000;

    @Test
    void R6_theShareRisesLinearlyFromTheStartShareToAllCalls() {
        RecoveryRamp ramp = new RecoveryRamp(1_000, 0.2);
        assertThat(ramp.share(START)).as("not running").isEqualTo(1.0);

        assertThat(ramp.start(START)).isTrue();

        assertThat(ramp.share(START)).isEqualTo(0.2);
        assertThat(ramp.share(START + 500)).isCloseTo(0.6, within(1e-9));
        assertThat(ramp.runningAt(START + 999)).isTrue();
        assertThat(ramp.runningAt(START + 1_000)).isFalse();
        ramp.stop();
        assertThat(ramp.share(START + 500)).isEqualTo(1.0);
        assertThat(ramp.active()).isFalse();
    }

    @Test
    void R6_aCallIsAdmittedWhenItsCreditReachesExactlyOneCall() {
        RecoveryRamp ramp = new RecoveryRamp(1_000_000, 0.5);
        ramp.start(START);

        // credit: 1 + 0.5 → admitted (0.5 left); 0.5 + 0.5 = 1 → admitted; 0.5 → refused; 1 → admitted
        assertThat(ramp.admit(START)).isEqualTo(Admission.ADMITTED);
        assertThat(ramp.admit(START)).isEqualTo(Admission.ADMITTED);
        assertThat(ramp.admit(START)).isEqualTo(Admission.REJECTED);
        assertThat(ramp.admit(START)).isEqualTo(Admission.ADMITTED);
    }

    @Test
    void R6_theRampEndsWithTheFirstCallAtTheEndOfItsWindow() {
        RecoveryRamp ramp = new RecoveryRamp(1_000, 0.1);
        ramp.start(START);

        assertThat(ramp.admit(START + 1_000)).isEqualTo(Admission.FINISHED);
        assertThat(ramp.active()).isFalse();
        assertThat(ramp.admit(START + 1_001)).isEqualTo(Admission.ADMITTED);
    }

    @Test
    void R6_aRampOfNoLengthNeverRuns() {
        RecoveryRamp ramp = new RecoveryRamp(0, 0.1);

        assertThat(ramp.start(START)).isFalse();
        assertThat(ramp.active()).isFalse();
        assertThat(ramp.admit(START)).isEqualTo(Admission.ADMITTED);
    }
}
