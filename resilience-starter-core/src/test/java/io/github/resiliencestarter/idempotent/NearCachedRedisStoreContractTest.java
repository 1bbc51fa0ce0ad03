package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContractTest;
import io.github.resiliencestarter.idempotent.support.NearCacheIdempotencyStore;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.time.Duration;

/**
 * The whole contract with the near cache in front of a real Redis server: the cache changes no
 * exactly-once guarantee.
 */
class NearCachedRedisStoreContractTest extends IdempotencyStoreContractTest {

    private final IdempotencyStore store = new NearCacheIdempotencyStore(StoreFixtures.redisStore(),
            NearCacheIdempotencyStore.DEFAULT_MAXIMUM_SIZE, Duration.ofMinutes(10), TimeSource.SYSTEM);

    @Override
    protected IdempotencyStore store() {
        return store;
    }
}
