package io.github.resiliencestarter.idempotent.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.testsupport.ManualTime;
import org.junit.jupiter.api.Test;

/** Expired records leave the memory store's map; without it a busy node would grow without bound. */
class InMemoryIdempotencyStoreSweepTest {

    private final ManualTime now = new ManualTime(1_000_000);

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(now);

    @Test
    void claimsOfNewKeysKeepOnlyTheRecordsThatHaveNotExpired() {
        for (int i = 0; i < 50_000; i++) {
            store.claim(new Claim("old-" + i, "op", "f", "owner", 100, 1_000));
        }
        now.advance(2_000); // every old record has expired
        for (int i = 0; i < 50_000; i++) {
            store.claim(new Claim("new-" + i, "op", "f", "owner", 100, 60_000));
        }
        // a sweep ran once the claims since the last one outnumbered the records it had left:
        // the 50 000 expired records are gone, the live ones all stay
        assertThat(store.size()).isEqualTo(50_000);
        assertThat(store.find("new-49999")).isNotNull();
    }

    @Test
    void aSweepKeepsLiveRecordsAndTheirState() {
        store.claim(new Claim("live", "op", "f", "owner", 60_000, 60_000));
        store.claim(new Claim("gone", "op", "f", "owner", 100, 1_000));
        now.advance(2_000);
        store.sweep(now.epochMillis());
        assertThat(store.size()).isEqualTo(1);
        ClaimResult again = store.claim(new Claim("live", "op", "f", "other", 60_000, 60_000));
        assertThat(again.existing()).isNotNull();
        assertThat(again.existing().ownerToken()).isEqualTo("owner");
    }
}
