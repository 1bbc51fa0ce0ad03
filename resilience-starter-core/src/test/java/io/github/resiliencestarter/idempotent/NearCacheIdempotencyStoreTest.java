package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.idempotent.support.ForwardingIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.NearCacheIdempotencyStore;
import io.github.resiliencestarter.testsupport.ManualTime;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** What the near cache keeps, for how long, and that a replay of a completed key skips the store. */
class NearCacheIdempotencyStoreTest {

    private final String run = TraceIds.generate().substring(0, 8);

    /** Counts the round trips that reach the store behind the cache. */
    private static final class CountingStore extends ForwardingIdempotencyStore {

        final AtomicInteger claims = new AtomicInteger();

        final AtomicInteger finds = new AtomicInteger();

        CountingStore(IdempotencyStore delegate) {
            super(delegate);
        }

        @Override
        public ClaimResult claim(Claim claim) {
            claims.incrementAndGet();
            return super.claim(claim);
        }

        @Override
        public @Nullable IdempotencyRecord find(String key) {
            finds.incrementAndGet();
            return super.find(key);
        }
    }

    @Test
    void replaysOfACompletedKeyAreServedWithoutCrossingTheNetwork() {
        CountingStore redis = new CountingStore(StoreFixtures.redisStore());
        NearCacheIdempotencyStore cached = new NearCacheIdempotencyStore(redis, 100, Duration.ofMinutes(1),
                TimeSource.SYSTEM);
        String key = "near-" + run;
        assertThat(cached.claim(new Claim(key, "op", "fp", "owner", 5_000, 60_000)).owned()).isTrue();
        cached.complete(new Completion(key, "owner", new StoredResponse("value", "\"done\""), 60_000));

        for (int i = 0; i < 20; i++) {
            ClaimResult replay = cached.claim(new Claim(key, "op", "fp", "other-" + i, 5_000, 60_000));
            assertThat(replay.existing()).isNotNull();
            assertThat(replay.existing().status()).isEqualTo(IdempotencyStatus.COMPLETED);
            assertThat(replay.existing().response().payload()).isEqualTo("\"done\"");
        }

        assertThat(redis.claims.get()).isEqualTo(2);
        assertThat(cached.stats().hitCount()).isEqualTo(19);
        assertThat(cached.find(key).status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(redis.finds.get()).isZero();
    }

    @Test
    void aRecordInProgressIsNeverCached() {
        CountingStore redis = new CountingStore(StoreFixtures.redisStore());
        NearCacheIdempotencyStore cached = new NearCacheIdempotencyStore(redis, 100, Duration.ofMinutes(1),
                TimeSource.SYSTEM);
        String key = "near-running-" + run;
        cached.claim(new Claim(key, "op", "fp", "owner", 30_000, 60_000));

        for (int i = 0; i < 5; i++) {
            assertThat(cached.claim(new Claim(key, "op", "fp", "dup-" + i, 30_000, 60_000)).existing().status())
                    .isEqualTo(IdempotencyStatus.IN_PROGRESS);
        }
        assertThat(redis.claims.get()).isEqualTo(6);
        assertThat(cached.stats().hitCount()).isZero();

        cached.release(key, "owner");
        assertThat(cached.claim(new Claim(key, "op", "fp", "retry", 30_000, 60_000)).owned()).isTrue();
    }

    @Test
    void aCachedRecordGoesAtItsOwnExpiryEvenBeforeTheCachesTimeToLive() {
        ManualTime clock = new ManualTime(1_000_000);
        CountingStore memory = new CountingStore(new InMemoryIdempotencyStore(clock));
        NearCacheIdempotencyStore cached = new NearCacheIdempotencyStore(memory, 100, Duration.ofHours(1), clock);
        completeAndCache(cached, "k", 10_000);

        clock.advance(9_999);
        assertThat(cached.cache().getIfPresent("k")).isNotNull();
        clock.advance(1);

        // the cache itself dropped the entry (its expiry, on its ticker), not only the read-side check
        assertThat(cached.cache().getIfPresent("k")).isNull();
        assertThat(cached.claim(new Claim("k", "op", "fp", "after-expiry", 1_000, 10_000)).owned()).isTrue();
    }

    @Test
    void aCachedRecordGoesAtTheCachesTimeToLiveWhenThatComesFirst() {
        ManualTime clock = new ManualTime(1_000_000);
        CountingStore memory = new CountingStore(new InMemoryIdempotencyStore(clock));
        NearCacheIdempotencyStore cached = new NearCacheIdempotencyStore(memory, 100, Duration.ofSeconds(5), clock);
        completeAndCache(cached, "k", 60_000);
        int claimsBefore = memory.claims.get();

        clock.advance(4_999);
        assertThat(cached.claim(new Claim("k", "op", "fp", "dup-1", 1_000, 60_000)).existing()).isNotNull();
        assertThat(memory.claims.get()).isEqualTo(claimsBefore);
        clock.advance(1);

        // the record still lives in the store for 55 s; the replay now asks the store again
        assertThat(cached.cache().getIfPresent("k")).isNull();
        ClaimResult replay = cached.claim(new Claim("k", "op", "fp", "dup-2", 1_000, 60_000));
        assertThat(replay.existing().status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(memory.claims.get()).isEqualTo(claimsBefore + 1);
    }

    /** Claims and completes a key, then claims it once more so the completed record is cached. */
    private static void completeAndCache(NearCacheIdempotencyStore cached, String key, long ttlMillis) {
        cached.claim(new Claim(key, "op", "fp", "owner", 1_000, ttlMillis));
        cached.complete(new Completion(key, "owner", new StoredResponse("value", "\"v1\""), ttlMillis));
        assertThat(cached.claim(new Claim(key, "op", "fp", "dup", 1_000, ttlMillis)).existing()).isNotNull();
        assertThat(cached.cache().getIfPresent(key)).isNotNull();
    }
}
