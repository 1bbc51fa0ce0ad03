package io.github.resiliencestarter.it.extending;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContractTest;

/**
 * The example store of {@code docs/extending.md} runs the whole store contract, taken from the
 * core module's published test jar exactly as a third-party store would.
 */
class LockedMapStoreContractTest extends IdempotencyStoreContractTest {

    private final IdempotencyStore store = new LockedMapIdempotencyStore(TimeSource.SYSTEM);

    @Override
    protected IdempotencyStore store() {
        return store;
    }
}
