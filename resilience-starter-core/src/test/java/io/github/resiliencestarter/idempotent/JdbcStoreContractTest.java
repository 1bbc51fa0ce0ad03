package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.testsupport.StoreFixtures;

/** The contract on a real MySQL-compatible server. */
class JdbcStoreContractTest extends IdempotencyStoreContract {

    private final IdempotencyStore store = StoreFixtures.mysqlStore();

    @Override
    protected IdempotencyStore store() {
        return store;
    }
}
