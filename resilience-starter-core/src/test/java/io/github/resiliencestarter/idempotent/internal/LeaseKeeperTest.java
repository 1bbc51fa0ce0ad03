package io.github.resiliencestarter.idempotent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The lease keeper, on the engine's memory store (a unit test of the engine): one stalled
 * extension never lets the other leases of the node lapse, and no lease is kept past what the
 * deadline allows (the deadline plus the margin), not even by an extension that waited to be sent.
 */
class LeaseKeeperTest {

    /** Extended every third of it: a pause of a few hundred milliseconds on a loaded machine is no lapse. */
    private static final long LEASE_MILLIS = 1_500;

    /** A memory store on the system clock that runs {@code beforeExtending} with the key before each lease extension. */
    private static InMemoryIdempotencyStore extendingAfter(Consumer<String> beforeExtending) {
        return new InMemoryIdempotencyStore() {
            @Override
            public boolean extendLease(String key, String ownerToken, long leaseMillis) {
                beforeExtending.accept(key);
                return super.extendLease(key, ownerToken, leaseMillis);
            }
        };
    }

    @Test
    void aStalledExtensionOfOneLeaseNeverLetsTheOtherLeasesOfTheNodeLapse() throws Exception {
        CountDownLatch stalled = new CountDownLatch(1);
        InMemoryIdempotencyStore store = extendingAfter(key -> {
            if (key.equals("stalled")) {
                try {
                    // a store call that never answers (a black hole with no client timeout)
                    stalled.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        LeaseKeeper keeper = new LeaseKeeper(TimeSource.SYSTEM);
        for (String key : new String[] {"stalled", "healthy"}) {
            store.claim(new Claim(key, "op", "fp", "owner-" + key, LEASE_MILLIS, 60_000));
        }
        try (LeaseKeeper.Lease first = keeper.keep(store, "stalled", "owner-stalled", LEASE_MILLIS, Long.MAX_VALUE);
                LeaseKeeper.Lease second = keeper.keep(store, "healthy", "owner-healthy", LEASE_MILLIS,
                        Long.MAX_VALUE)) {
            Eventually.waitUntil("the stalled lease ran out", () -> store.find("stalled")
                    .isLeaseExpired(System.currentTimeMillis()));
            // two leases later, the healthy one is still held
            Thread.sleep(2 * LEASE_MILLIS);
            assertThat(store.find("healthy").isLeaseExpired(System.currentTimeMillis())).isFalse();
        } finally {
            stalled.countDown();
        }
    }

    /** A lease kept at the end of {@code main} must not keep the JVM from exiting. */
    @Test
    void theKeepersThreadsNeverKeepTheJvmAlive() throws Exception {
        CountDownLatch extended = new CountDownLatch(1);
        InMemoryIdempotencyStore store = extendingAfter(key -> extended.countDown());
        store.claim(new Claim("daemon", "op", "fp", "owner", LeaseKeeper.MIN_LEASE_MILLIS, 60_000));
        LeaseKeeper keeper = new LeaseKeeper(TimeSource.SYSTEM);
        List<LeaseKeeper.Lease> lease = new ArrayList<>();
        // a new thread is a daemon only if made one or made by one: the keeper's threads are made here,
        // by a thread that is not (its timer at the first lease, an extension thread by the extension sent now)
        Thread application = new Thread(() -> lease.add(keeper.keepExtendingNow(store, "daemon", "owner",
                LeaseKeeper.MIN_LEASE_MILLIS, Long.MAX_VALUE)));
        application.setDaemon(false);
        application.start();
        application.join(10_000);
        try (LeaseKeeper.Lease kept = lease.get(0)) {
            assertThat(extended.await(10, TimeUnit.SECONDS)).isTrue();
            List<Thread> keepers = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> thread.getName().startsWith("resilience-idempotency-lease")).toList();
            assertThat(keepers).as("its timer and an extension thread").hasSizeGreaterThanOrEqualTo(2)
                    .allMatch(Thread::isDaemon);
        }
    }

    @Test
    void aLeaseOfExactlyTheMinimumIsFirstExtendedAtAThirdOfItNotAtOnce() {
        ManualTime clock = new ManualTime(1_000_000);
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock);
        Queue<Runnable> pool = new ArrayDeque<>();
        LeaseKeeper keeper = LeaseKeeper.tickedByHand(clock, pool::add);
        store.claim(new Claim("minimum", "op", "fp", "owner", LeaseKeeper.MIN_LEASE_MILLIS, 60_000));
        try (LeaseKeeper.Lease lease = keeper.keep(store, "minimum", "owner", LeaseKeeper.MIN_LEASE_MILLIS,
                Long.MAX_VALUE)) {
            assertThat(pool).as("nothing sent at once").isEmpty();
            clock.advance(LeaseKeeper.MIN_LEASE_MILLIS / 3 - 1);
            keeper.tick();
            assertThat(pool).as("a millisecond before a third of the lease").isEmpty();
            clock.advance(1);
            keeper.tick();
            assertThat(pool).as("at a third of the lease, to the millisecond").hasSize(1);
        }
    }

    @Test
    void onAClockWhoseNanoTimeIsNegativeLeasesAreStillExtended() {
        // System.nanoTime may be any value, negative included: only differences of it mean anything
        ManualTime clock = new ManualTime(-1_000_000_000L);
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock);
        Queue<Runnable> pool = new ArrayDeque<>();
        LeaseKeeper keeper = LeaseKeeper.tickedByHand(clock, pool::add);
        store.claim(new Claim("negative", "op", "fp", "owner", LEASE_MILLIS, 60_000));
        try (LeaseKeeper.Lease lease = keeper.keep(store, "negative", "owner", LEASE_MILLIS, Long.MAX_VALUE)) {
            clock.advance(LEASE_MILLIS / 3);
            keeper.tick();
            assertThat(pool).hasSize(1);
        }
    }

    @Test
    void I6_aLeaseWhoseKeepEndsNowGetsNoExtensionNotEvenAnEmptyOne() {
        ManualTime clock = new ManualTime(1_000_000);
        List<Long> sent = new ArrayList<>();
        // one store each: the keeper sends one batch per store, so the pool tells what was queued
        InMemoryIdempotencyStore endingStore = recordingExtensions(clock, sent);
        InMemoryIdempotencyStore endedStore = recordingExtensions(clock, sent);
        Queue<Runnable> pool = new ArrayDeque<>();
        LeaseKeeper keeper = LeaseKeeper.tickedByHand(clock, pool::add);
        endingStore.claim(new Claim("ending", "op", "fp", "owner", 3_000, 60_000));
        endedStore.claim(new Claim("ended", "op", "fp", "owner", 3_000, 60_000));
        try (LeaseKeeper.Lease ending = keeper.keep(endingStore, "ending", "owner", 3_000, 1_500);
                LeaseKeeper.Lease ended = keeper.keep(endedStore, "ended", "owner", 3_000, 1_000)) {
            clock.advance(1_000);
            keeper.tick();
            // both due; "ended" may be kept 0 ms more: not queued; "ending" 500 ms more: queued
            assertThat(pool).hasSize(1);
            clock.advance(500);
            pool.forEach(Runnable::run);
            // by the time it is sent, "ending" has 0 ms left too: no extension of 0 ms goes out
            assertThat(sent).isEmpty();
        }
    }

    private static InMemoryIdempotencyStore recordingExtensions(ManualTime clock, List<Long> sent) {
        return new InMemoryIdempotencyStore(clock) {
            @Override
            public boolean[] extendLeases(List<LeaseExtension> leases) {
                leases.forEach(each -> sent.add(each.leaseMillis()));
                return super.extendLeases(leases);
            }
        };
    }

    @Test
    void theLeasesDueAtOneTickGoToTheirStoreInBatchesOfItsSize() {
        ManualTime clock = new ManualTime(1_000_000);
        List<Integer> batches = new ArrayList<>();
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock) {
            @Override
            public int leaseBatchSize() {
                return 3;
            }

            @Override
            public boolean[] extendLeases(List<LeaseExtension> leases) {
                batches.add(leases.size());
                return super.extendLeases(leases);
            }
        };
        Queue<Runnable> pool = new ArrayDeque<>();
        LeaseKeeper keeper = LeaseKeeper.tickedByHand(clock, pool::add);
        List<LeaseKeeper.Lease> held = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            store.claim(new Claim("held-" + i, "op", "fp", "owner", LEASE_MILLIS, 60_000));
            held.add(keeper.keep(store, "held-" + i, "owner", LEASE_MILLIS, Long.MAX_VALUE));
        }
        // the lost claim is answered false and no longer kept
        store.release("held-6", "owner");
        clock.advance(LEASE_MILLIS / 3);
        keeper.tick();
        assertThat(pool).hasSize(3);
        pool.forEach(Runnable::run);
        pool.clear();

        assertThat(batches).containsExactlyInAnyOrder(3, 3, 1);
        for (int i = 0; i < 6; i++) {
            assertThat(store.find("held-" + i).leaseExpiresAt()).isEqualTo(clock.epochMillis() + LEASE_MILLIS);
        }
        clock.advance(LEASE_MILLIS / 3);
        keeper.tick();
        pool.forEach(Runnable::run);
        assertThat(batches).hasSize(5).endsWith(3, 3);
        held.forEach(LeaseKeeper.Lease::close);
    }

    @Test
    void I6_aLeaseIsNeverKeptPastTheDeadlinePlusTheMarginToTheMillisecond() {
        ManualTime clock = new ManualTime(1_000_000);
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock);
        // extensions wait in the pool before they are sent, as on a busy node
        Queue<Runnable> pool = new ArrayDeque<>();
        LeaseKeeper keeper = LeaseKeeper.tickedByHand(clock, pool::add);
        long startedAt = clock.epochMillis();
        long keepForMillis = 2_500;
        store.claim(new Claim("bounded", "op", "fp", "owner", LEASE_MILLIS, 60_000));
        long latestExpiry = 0;
        try (LeaseKeeper.Lease lease = keeper.keep(store, "bounded", "owner", LEASE_MILLIS, keepForMillis)) {
            for (int step = 0; step < 40; step++) {
                clock.advance(LeaseKeeper.TICK_MILLIS);
                keeper.tick();
                clock.advance(LeaseKeeper.TICK_MILLIS / 2);
                while (!pool.isEmpty()) {
                    pool.poll().run();
                }
                long expiresAt = store.find("bounded").leaseExpiresAt();
                assertThat(expiresAt - startedAt).as("lease end after %d ticks", step + 1)
                        .isLessThanOrEqualTo(keepForMillis);
                latestExpiry = Math.max(latestExpiry, expiresAt);
            }
        }
        // kept while the work ran, up to the bound exactly
        assertThat(latestExpiry - startedAt).isEqualTo(keepForMillis);
    }

    @Test
    void extensionsToAStoreThatKeepsFailingBackOffInsteadOfGoingOutAtEveryTick() {
        ManualTime clock = new ManualTime(1_000_000);
        long lease = 3_000;
        long started = clock.epochMillis();
        List<Long> attempts = new ArrayList<>();
        boolean[] down = {true};
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock) {
            @Override
            public boolean[] extendLeases(List<LeaseExtension> leases) {
                attempts.add(clock.epochMillis() - started);
                if (down[0]) {
                    throw new IdempotencyStoreException("the store is away", null);
                }
                return super.extendLeases(leases);
            }
        };
        Queue<Runnable> pool = new ArrayDeque<>();
        LeaseKeeper keeper = LeaseKeeper.tickedByHand(clock, pool::add);
        store.claim(new Claim("held", "op", "fp", "owner", lease, 60_000));
        keeper.keep(store, "held", "owner", lease, Long.MAX_VALUE);
        for (long at = 0; at < 3_000; at += LeaseKeeper.TICK_MILLIS) {
            keeper.tick();
            pool.forEach(Runnable::run);
            pool.clear();
            clock.advance(LeaseKeeper.TICK_MILLIS);
        }
        // due at a third of the lease; then after 100, 200, 400 ms, and half a second (a sixth of the lease) apart
        assertThat(attempts).containsExactly(1_000L, 1_100L, 1_300L, 1_700L, 2_200L, 2_700L);

        down[0] = false;
        for (int tick = 0; tick < 6; tick++) {
            keeper.tick();
            pool.forEach(Runnable::run);
            pool.clear();
            clock.advance(LeaseKeeper.TICK_MILLIS);
        }
        assertThat(attempts).as("extended once the store is back, then not again before a third of the lease")
                .endsWith(2_700L, 3_200L);
        assertThat(store.find("held").isLeaseExpired(clock.epochMillis())).isFalse();
    }
}
