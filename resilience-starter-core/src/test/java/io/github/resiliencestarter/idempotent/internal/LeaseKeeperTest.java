package io.github.resiliencestarter.idempotent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.testsupport.Eventually;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lease keeper, on the engine's memory store (a unit test of the engine): one stalled
 * extension never lets the other leases of the node lapse, and no lease is kept past what the
 * deadline allows (the deadline plus the margin), not even by a last full-length extension.
 */
class LeaseKeeperTest {

    /** Extended every third of it: a pause of a few hundred milliseconds on a loaded machine is no lapse. */
    private static final long LEASE_MILLIS = 1_500;

    @Test
    void aStalledExtensionOfOneLeaseNeverLetsTheOtherLeasesOfTheNodeLapse() throws Exception {
        CountDownLatch stalled = new CountDownLatch(1);
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore() {
            @Override
            public boolean extendLease(String key, String ownerToken, long leaseMillis) {
                if (key.equals("stalled")) {
                    try {
                        // a store call that never answers (a black hole with no client timeout)
                        stalled.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.extendLease(key, ownerToken, leaseMillis);
            }
        };
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

    @Test
    void I6_aLeaseIsNeverKeptPastTheDeadlinePlusTheMargin() throws Exception {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();
        LeaseKeeper keeper = new LeaseKeeper(TimeSource.SYSTEM);
        long keepForMillis = 2_500;
        long startedAt = System.currentTimeMillis();
        store.claim(new Claim("bounded", "op", "fp", "owner", LEASE_MILLIS, 60_000));
        try (LeaseKeeper.Lease lease = keeper.keep(store, "bounded", "owner", LEASE_MILLIS, keepForMillis)) {
            Eventually.waitUntil("the kept lease ran out", () -> store.find("bounded")
                    .isLeaseExpired(System.currentTimeMillis()));
        }
        IdempotencyRecord record = store.find("bounded");
        // each extension is the lease or what is left until the limit, whichever is shorter
        assertThat(record.leaseExpiresAt() - startedAt).isGreaterThan(LEASE_MILLIS)
                .isLessThanOrEqualTo(keepForMillis + LeaseKeeper.TICK_MILLIS * 2);
    }
}
