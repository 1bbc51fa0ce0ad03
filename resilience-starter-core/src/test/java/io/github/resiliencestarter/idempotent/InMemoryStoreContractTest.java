package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContract;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;

/** The contract on the in-memory store (the engine's unit-test store). */
class InMemoryStoreContractTest extends IdempotencyStoreContract {

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

    @Override
    protected IdempotencyStore store() {
        return store;
    }
}
