package io.github.resiliencestarter.idempotent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The claim / wait / replay decision on a clock the test moves (rules I-2, I-5): each answer of the
 * store gives one step, the waits double up to their cap, and neither the wait limit nor the
 * deadline is overstepped by a millisecond.
 */
class ClaimProgressTest {

    private final ManualTime time = new ManualTime(1_000_000L);

    private IdempotencyRecord record(String fingerprint, IdempotencyStatus status, long leaseExpiresAt) {
        return new IdempotencyRecord("k", "Orders.create", fingerprint, status, "owner", leaseExpiresAt,
                time.epochMillis() + 60_000, null, time.epochMillis());
    }

    private IdempotencyRecord inProgress() {
        return record("fp", IdempotencyStatus.IN_PROGRESS, time.epochMillis() + 30_000);
    }

    private ClaimProgress progress(Duration waitTimeout, Deadline deadline) {
        return new ClaimProgress(IdempotencyConfig.custom().waitTimeout(waitTimeout).build(), "fp", deadline, 3_000,
                time);
    }

    @Test
    void I5_aCompletedRecordReplaysAndAnotherFingerprintIsAReusedKey() {
        ClaimProgress progress = progress(Duration.ofSeconds(5), null);

        assertThat(progress.examine(record("fp", IdempotencyStatus.COMPLETED, 0))).isEqualTo(ClaimStep.REPLAY);
        assertThat(progress.examine(record("other", IdempotencyStatus.COMPLETED, 0))).isEqualTo(ClaimStep.KEY_REUSED);
        assertThat(progress.examine(record("other", IdempotencyStatus.IN_PROGRESS, time.epochMillis() + 1)))
                .isEqualTo(ClaimStep.KEY_REUSED);
    }

    @Test
    void I5_aCommittedRecordReplaysOnlyOnceItsLeaseIsOverToTheMillisecond() {
        ClaimProgress progress = progress(Duration.ofSeconds(5), null);
        long now = time.epochMillis();

        // its response may still be on its way while the lease runs: wait for it
        assertThat(progress.examine(record("fp", IdempotencyStatus.COMMITTED, now + 1))).isEqualTo(ClaimStep.WAIT);
        assertThat(progress.examine(record("fp", IdempotencyStatus.COMMITTED, now))).isEqualTo(ClaimStep.REPLAY);
    }

    /**
     * Issue 45, as the simulator found it (seed 9322360990279): a node paused between sending its
     * claim and reading the answer ran the key after its lease had lapsed and another node had run
     * it. A claim answered within a third of the 3 s lease runs; a later one is confirmed first.
     */
    @Test
    void I3_aClaimAnsweredSoLateThatItsLeaseMayHaveLapsedIsConfirmedBeforeItRuns() {
        ClaimProgress progress = progress(Duration.ofSeconds(5), null);
        progress.sending();
        time.advance(999);
        assertThat(progress.afterClaim(ClaimResult.claimed()))
                .isEqualTo(ClaimStep.RUN);

        progress.sending();
        time.advance(1_000);
        assertThat(progress.afterClaim(ClaimResult.takenOver()))
                .isEqualTo(ClaimStep.CONFIRM);
        // the extension with the execution's token: still its key, answered in time, it runs
        progress.sending();
        time.advance(10);
        assertThat(progress.afterConfirm(true)).isEqualTo(ClaimStep.RUN);
        // taken over meanwhile: claim again, which finds the new owner's record
        assertThat(progress.afterConfirm(false)).isEqualTo(ClaimStep.CLAIM_AGAIN);
        // the extension itself answered late: confirmed once more
        progress.sending();
        time.advance(5_000);
        assertThat(progress.afterConfirm(true)).isEqualTo(ClaimStep.CONFIRM);
    }

    @Test
    void I2_aPollThatFindsTheKeyReleasedOrItsLeaseOverClaimsAgain() {
        ClaimProgress progress = progress(Duration.ofSeconds(5), null);
        long now = time.epochMillis();

        assertThat(progress.afterPoll(null)).isEqualTo(ClaimStep.CLAIM_AGAIN);
        assertThat(progress.afterPoll(record("fp", IdempotencyStatus.IN_PROGRESS, now)))
                .isEqualTo(ClaimStep.CLAIM_AGAIN);
        assertThat(progress.afterPoll(record("fp", IdempotencyStatus.IN_PROGRESS, now + 1)))
                .isEqualTo(ClaimStep.WAIT);
        assertThat(progress.afterPoll(record("fp", IdempotencyStatus.COMPLETED, 0))).isEqualTo(ClaimStep.REPLAY);
    }

    @Test
    void I2_waitsDoubleFromTheFirstPollToTheirCap() {
        ClaimProgress progress = progress(Duration.ofSeconds(60), null);
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.WAIT);
            waits.add(progress.waitMillis());
            time.advance(progress.waitMillis());
        }

        assertThat(waits).containsExactly(10L, 20L, 40L, 80L, 160L, 200L, 200L);
    }

    @Test
    void I2_theLastWaitEndsAtTheWaitLimitAndAtItTheDuplicateIsRefused() {
        ClaimProgress progress = progress(Duration.ofMillis(25), null);

        assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.WAIT);
        assertThat(progress.waitMillis()).isEqualTo(10);
        time.advance(10);
        assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.WAIT);
        assertThat(progress.waitMillis()).as("15 ms left of 25, not the 20 the doubling asks").isEqualTo(15);
        time.advance(15);

        assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.REJECT);
    }

    @Test
    void I2_lessThanAMillisecondLeftStillWaitsOneMillisecond() {
        ClaimProgress progress = progress(Duration.ofNanos(500_000), null);

        assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.WAIT);
        assertThat(progress.waitMillis()).isEqualTo(1);
    }

    @Test
    void C1_aDeadlineShorterThanTheWaitLimitBoundsTheWait() {
        ClaimProgress progress = progress(Duration.ofSeconds(5), Deadline.after(Duration.ofMillis(30), time));

        assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.WAIT);
        time.advance(29);
        assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.WAIT);
        assertThat(progress.waitMillis()).isEqualTo(1);
        time.advance(1);
        assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.REJECT);
    }

    @Test
    void C1_anExpiredDeadlineRefusesAtOnce() {
        Deadline expired = Deadline.after(Duration.ofMillis(10), time);
        time.advance(20);

        assertThat(progress(Duration.ofSeconds(5), expired).examine(inProgress())).isEqualTo(ClaimStep.REJECT);
    }

    @Test
    void I2_theRejectStrategyRefusesAnInProgressDuplicateWithoutWaiting() {
        ClaimProgress progress = new ClaimProgress(IdempotencyConfig.custom()
                .onInProgress(InProgressStrategy.REJECT).build(), "fp", null, 3_000, time);

        assertThat(progress.examine(inProgress())).isEqualTo(ClaimStep.REJECT);
        assertThat(progress.examine(record("fp", IdempotencyStatus.COMPLETED, 0))).isEqualTo(ClaimStep.REPLAY);
    }
}
