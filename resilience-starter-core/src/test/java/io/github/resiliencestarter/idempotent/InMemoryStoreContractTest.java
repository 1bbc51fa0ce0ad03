package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContractTest;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;

/** The contract on the in-memory store (the engine's unit-test store). */
class InMemoryStoreContractTest extends IdempotencyStoreContractTest {

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

    @Override
    protected IdempotencyStore store() {
        return store;
    }
}
