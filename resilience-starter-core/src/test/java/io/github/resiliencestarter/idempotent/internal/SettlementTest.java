package io.github.resiliencestarter.idempotent.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.StoredResponse;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.testsupport.ManualScheduler;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The settlement of a claim on manual time (a unit test of the engine): what it writes, how long
 * it keeps trying while the store refuses its completion or release, how long its node holds the
 * key and keeps its lease, and a duplicate hurrying it.
 */
class SettlementTest {

    private static final long LEASE = 3_000;

    private static final long SETTLE_LIMIT = 5_000;

    private static final String KEY = "idem:op:k";

    private static final String OWNER = "owner";

    private final ManualTime time = new ManualTime(1_800_000_000_000L);

    private final ManualScheduler threads = new ManualScheduler(time);

    /** Refuses completions and releases while {@link #away}; extends leases all along, and counts them. */
    private final RefusingStore store = new RefusingStore(time);

    private final LeaseKeeper leases = LeaseKeeper.tickedByHand(time, Runnable::run);

    private final Settlement settlement = new Settlement(store, leases, threads);

    private static final class RefusingStore extends InMemoryIdempotencyStore {

        volatile boolean away;

        final AtomicInteger extensions = new AtomicInteger();

        volatile Runnable beforeCompletion = () -> { };

        RefusingStore(ManualTime time) {
            super(time);
        }

        @Override
        public boolean complete(Completion completion) {
            beforeCompletion.run();
            refuseWhileAway();
            return super.complete(completion);
        }

        @Override
        public boolean release(String key, String ownerToken) {
            refuseWhileAway();
            return super.release(key, ownerToken);
        }

        @Override
        public boolean extendLease(String key, String ownerToken, long leaseMillis) {
            extensions.incrementAndGet();
            return super.extendLease(key, ownerToken, leaseMillis);
        }

        private void refuseWhileAway() {
            if (away) {
                throw new IdempotencyStoreException("refused", null);
            }
        }
    }

    private LeaseKeeper.Lease claimed() {
        store.claim(new Claim(KEY, "op", "fp", OWNER, LEASE, 600_000));
        return leases.keep(store, KEY, OWNER, LEASE, Long.MAX_VALUE);
    }

    private static Settlement.Command completion() {
        return new Settlement.Command("op", KEY, OWNER,
                new Completion(KEY, OWNER, StoredResponse.value("\"done\""), 600_000), LEASE, SETTLE_LIMIT);
    }

    private static Settlement.Command release() {
        return new Settlement.Command("op", KEY, OWNER, null, LEASE, SETTLE_LIMIT);
    }

    /** Moves the clock, the lease keeper ticking every 100 ms as its timer would. */
    private void advance(long millis) {
        for (long step = 0; step < millis; step += 100) {
            threads.advance(Math.min(100, millis - step));
            leases.tick();
        }
    }

    private IdempotencyRecord record() {
        return store.find(KEY);
    }

    @Test
    void aCompletionRefusedForLessThanTheSettleLimitIsWrittenInFullOnceTheStoreIsBack() {
        LeaseKeeper.Lease lease = claimed();
        Object holder = settlement.hold(KEY, Long.MAX_VALUE);
        store.away = true;

        assertThat(settlement.settle(completion(), lease, holder)).isEqualTo(Settlement.Result.DEFERRED);
        advance(SETTLE_LIMIT - 1_000);
        assertThat(settlement.isHeld(KEY)).isTrue();
        store.away = false;
        advance(2_100);

        assertThat(record().status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(record().response()).isEqualTo(StoredResponse.value("\"done\""));
        assertThat(settlement.isHeld(KEY)).isFalse();
    }

    @Test
    void aCompletionRefusedPastTheSettleLimitIsRecordedAsExecutedOnceTheStoreIsBack_theKeyHeldAndItsLeaseKeptMeanwhile() {
        LeaseKeeper.Lease lease = claimed();
        Object holder = settlement.hold(KEY, Long.MAX_VALUE);
        store.away = true;

        settlement.settle(completion(), lease, holder);
        advance(SETTLE_LIMIT + 20_000);

        assertThat(settlement.isHeld(KEY)).as("held past the settle limit").isTrue();
        assertThat(record().isLeaseExpired(time.epochMillis())).as("the lease lapsed").isFalse();
        store.away = false;
        advance(2_100);
        assertThat(record().status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(record().response()).isEqualTo(StoredResponse.outcomeUnknown());
        assertThat(settlement.isHeld(KEY)).isFalse();
        int extended = store.extensions.get();
        advance(2 * LEASE);
        assertThat(store.extensions.get()).as("the lease is still kept after the settlement").isEqualTo(extended);
    }

    @Test
    void aReleaseRefusedPastTheSettleLimitIsGivenUp_theKeyNoLongerHeldAndItsLeaseLeftToLapse() {
        LeaseKeeper.Lease lease = claimed();
        store.away = true;

        assertThat(settlement.settle(release(), lease)).isEqualTo(Settlement.Result.DEFERRED);
        advance(SETTLE_LIMIT - 500);
        assertThat(settlement.isHeld(KEY)).isTrue();
        advance(2_500);

        assertThat(settlement.isHeld(KEY)).isFalse();
        int extended = store.extensions.get();
        advance(LEASE + 100);
        assertThat(store.extensions.get()).isEqualTo(extended);
        assertThat(record().status()).isEqualTo(IdempotencyStatus.IN_PROGRESS);
        assertThat(record().isLeaseExpired(time.epochMillis())).isTrue();
    }

    @Test
    void aDuplicateHurriesAPendingSettlement_itIsTriedAtOnceAndItsTurnWritesNothingMore() {
        AtomicInteger completions = new AtomicInteger();
        store.beforeCompletion = completions::incrementAndGet;
        LeaseKeeper.Lease lease = claimed();
        store.away = true;
        settlement.settle(completion(), lease);
        store.away = false;

        settlement.hurry(KEY);
        threads.runDue();

        assertThat(record().status()).as("written without waiting for its turn").isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(settlement.isHeld(KEY)).isFalse();
        assertThat(completions.get()).as("the first attempt, then the hurried one").isEqualTo(2);

        advance(Settlement.MAX_RETRY_MILLIS * 2);
        assertThat(completions.get()).as("no try after the written one").isEqualTo(2);
        assertThat(threads.pending()).as("no turn left scheduled, none scheduling itself again").isZero();
    }

    @Test
    void runningWorkHoldsItsKeyUntilItsKeepEnds_butOnceItSettlesUntilTheSettlementEnds() {
        settlement.hold(KEY, 1_000);
        advance(900);
        assertThat(settlement.isHeld(KEY)).isTrue();
        advance(200);
        assertThat(settlement.isHeld(KEY)).as("hung past its keep").isFalse();

        LeaseKeeper.Lease lease = claimed();
        Object holder = settlement.hold(KEY, 1_000);
        store.away = true;
        settlement.settle(completion(), lease, holder);
        advance(1_500);
        assertThat(settlement.isHeld(KEY)).as("its settlement still tried").isTrue();

        settlement.hold("idem:op:unbounded", Long.MAX_VALUE);
        advance(60_000);
        assertThat(settlement.isHeld("idem:op:unbounded")).isTrue();
        assertThat(settlement.isHeld("idem:op:other")).isFalse();
    }

    @Test
    void aFirstAttemptSlowerThanTheWorksKeepStillHoldsTheKey() {
        LeaseKeeper.Lease lease = claimed();
        Object holder = settlement.hold(KEY, 1_000);
        AtomicBoolean heldMidCommand = new AtomicBoolean();
        store.beforeCompletion = () -> {
            // the command takes two seconds, past the work's keep of one
            time.advance(2_000);
            heldMidCommand.set(settlement.isHeld(KEY));
        };

        assertThat(settlement.settle(completion(), lease, holder)).isEqualTo(Settlement.Result.SETTLED);

        assertThat(heldMidCommand).as("held while its first attempt ran").isTrue();
        assertThat(settlement.isHeld(KEY)).isFalse();
    }

    @Test
    void aSettlementWrittenAtOnceEndsTheHoldAndTheLease() {
        LeaseKeeper.Lease lease = claimed();
        Object holder = settlement.hold(KEY, Long.MAX_VALUE);

        assertThat(settlement.settle(completion(), lease, holder)).isEqualTo(Settlement.Result.SETTLED);

        assertThat(settlement.isHeld(KEY)).isFalse();
        assertThat(record().response()).isEqualTo(StoredResponse.value("\"done\""));
        int extended = store.extensions.get();
        advance(2 * LEASE);
        assertThat(store.extensions.get()).as("the lease is still kept after the settlement").isEqualTo(extended);
    }

    @Test
    void runningWorkHoldsItsKeyUpToTheEndOfItsKeepAndNotAtIt() {
        settlement.hold(KEY, 1_000);
        time.advance(999);
        assertThat(settlement.isHeld(KEY)).isTrue();
        time.advance(1);
        assertThat(settlement.isHeld(KEY)).isFalse();
    }

    @Test
    void aTurnThatFallsDuringAHurriedTryComesAgainInsteadOfTryingAlongsideIt() {
        AtomicInteger tries = new AtomicInteger();
        AtomicInteger duringTheHurriedTry = new AtomicInteger();
        AtomicBoolean hurrying = new AtomicBoolean();
        LeaseKeeper.Lease lease = claimed();
        store.away = true;
        settlement.settle(completion(), lease);
        store.beforeCompletion = () -> {
            tries.incrementAndGet();
            if (hurrying.compareAndSet(true, false)) {
                // the first turn falls due while the hurried try waits on the store
                int before = tries.get();
                threads.advance(Settlement.FIRST_RETRY_MILLIS);
                duringTheHurriedTry.set(tries.get() - before);
            }
        };
        hurrying.set(true);
        settlement.hurry(KEY);
        threads.runDue();
        assertThat(duringTheHurriedTry.get()).as("tries made by the turn while the hurried one was under way")
                .isZero();

        store.away = false;
        advance(Settlement.MAX_RETRY_MILLIS * 2);
        assertThat(record().status()).as("the turn came again and wrote it").isEqualTo(IdempotencyStatus.COMPLETED);
    }

    @Test
    void onceAPendingCompletionIsWrittenItsLeaseIsNoLongerExtended() {
        LeaseKeeper.Lease lease = claimed();
        store.away = true;
        settlement.settle(completion(), lease);
        advance(1_000);
        store.away = false;
        for (int step = 0; step < 5_000 && record().status() != IdempotencyStatus.COMPLETED; step++) {
            advance(1);
        }
        assertThat(record().status()).isEqualTo(IdempotencyStatus.COMPLETED);
        int extensions = store.extensions.get();
        advance(LEASE * 2);
        assertThat(store.extensions.get()).as("extensions after the completion was written").isEqualTo(extensions);
    }

    @Test
    void aClaimWhoseLeaseWasNotKeptHasItKeptWhileItsSettlementIsRetried() {
        store.claim(new Claim(KEY, "op", "fp", OWNER, LEASE, 600_000));
        Object holder = settlement.hold(KEY, Long.MAX_VALUE);
        store.away = true;
        assertThat(settlement.settle(completion(), LeaseKeeper.Lease.NONE, holder))
                .isEqualTo(Settlement.Result.DEFERRED);
        advance(LEASE * 2);
        assertThat(record().isLeaseExpired(time.epochMillis())).as("the claim's lease, kept by the settlement")
                .isFalse();
        store.away = false;
        advance(Settlement.MAX_RETRY_MILLIS);
        assertThat(record().status()).isEqualTo(IdempotencyStatus.COMPLETED);
    }

    @Test
    void aStoreClientFailingWithAnErrorStillEndsTheHold() {
        LeaseKeeper.Lease lease = claimed();
        Object holder = settlement.hold(KEY, Long.MAX_VALUE);
        store.beforeCompletion = () -> {
            throw new LinkageError("a broken store client");
        };
        assertThat(catchThrowable(() -> settlement.settle(completion(), lease, holder)))
                .isInstanceOf(LinkageError.class);
        assertThat(settlement.isHeld(KEY)).as("held by nothing that runs any more").isFalse();
    }

    @Test
    void aSettlementOnTheSettlementThreadsAnswersWhatItsFirstAttemptFound() {
        LeaseKeeper.Lease lease = claimed();
        Object holder = settlement.hold(KEY, Long.MAX_VALUE);
        CompletableFuture<Settlement.Result> settled =
                settlement.settleAsync(completion(), lease, holder);
        threads.runDue();
        assertThat(settled).isCompletedWithValue(Settlement.Result.SETTLED);
        assertThat(settlement.isHeld(KEY)).as("its holder gone once settled").isFalse();
    }
}
