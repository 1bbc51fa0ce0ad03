package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContractTest;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;
import static org.assertj.core.api.Assertions.assertThat;

/** The contract on a real Redis server. */
class RedisStoreContractTest extends IdempotencyStoreContractTest {

    private final IdempotencyStore store = StoreFixtures.redisStore();

    private final StringRedisTemplate redis = StoreFixtures.redisTemplate();

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Test
    void IP4_everyWriteLeavesATimeToLiveOnTheKey() {
        String key = key("ttl-on-writes");
        store.claim(new Claim(key, "op", "fp", "owner", 5_000, 60_000));
        long afterClaim = redis.getExpire(key, java.util.concurrent.TimeUnit.MILLISECONDS);
        store.extendLease(key, "owner", 5_000);
        store.complete(new Completion(key, "owner", new StoredResponse("value", "\"done\""), 120_000));
        long afterComplete = redis.getExpire(key, java.util.concurrent.TimeUnit.MILLISECONDS);

        assertThat(afterClaim).isBetween(1L, 60_000L);
        assertThat(afterComplete).isBetween(60_001L, 120_000L);
    }
}
