package io.github.resiliencestarter.idempotent.support;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A store that hands every call to another one: extend it and override the calls a decorator
 * changes (counting, tracing, a fault of a test), and the rest keep forwarding.
 */
public class ForwardingIdempotencyStore implements IdempotencyStore {

    private final IdempotencyStore delegate;

    /**
     * Creates the decorator.
     *
     * @param delegate the store every call goes to
     */
    public ForwardingIdempotencyStore(IdempotencyStore delegate) {
        this.delegate = delegate;
    }

    /**
     * The store behind this one.
     *
     * @return the wrapped store
     */
    public IdempotencyStore delegate() {
        return delegate;
    }

    @Override
    public ClaimResult claim(Claim claim) {
        return delegate.claim(claim);
    }

    @Override
    public boolean complete(Completion completion) {
        return delegate.complete(completion);
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return delegate.release(key, ownerToken);
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        return delegate.extendLease(key, ownerToken, leaseMillis);
    }

    @Override
    public int leaseBatchSize() {
        return delegate.leaseBatchSize();
    }

    @Override
    public boolean[] extendLeases(List<LeaseExtension> leases) {
        return delegate.extendLeases(leases);
    }

    @Override
    public @Nullable IdempotencyRecord find(String key) {
        return delegate.find(key);
    }

    @Override
    public void ping() {
        delegate.ping();
    }
}
