package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.testsupport.StoreFixtures;

/** The contract on a real Redis server. */
class RedisStoreContractTest extends IdempotencyStoreContract {

    private final IdempotencyStore store = StoreFixtures.redisStore();

    @Override
    protected IdempotencyStore store() {
        return store;
    }
}
