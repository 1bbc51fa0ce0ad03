package io.github.resiliencestarter.idempotent;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where idempotency records live. Every write that changes an owned record is conditional on the
 * owner token, so an execution that lost its claim (its lease expired and another took over) can
 * never overwrite or delete the new owner's record. Implementations throw
 * {@link IdempotencyStoreException} when the store cannot be reached.
 *
 * <p>Requests and records are small records ({@link Claim}, {@link Completion},
 * {@link IdempotencyRecord}, {@link StoredResponse}), so a field added later does not break an
 * implementation. A store proves itself by passing the contract suite shipped in this module's
 * test jar ({@code IdempotencyStoreContractTest}); see {@code docs/extending.md}.
 *
 * <p>Times are decided by the store (for example Redis {@code TIME} or the database clock where
 * possible), so nodes with skewed clocks agree on leases.
 */
public interface IdempotencyStore {

    /**
     * Atomically claims {@code claim.key()}: creates an IN_PROGRESS record when none is live, takes
     * over an IN_PROGRESS record whose lease has expired, or reports the live record (IN_PROGRESS
     * with a valid lease, COMMITTED or COMPLETED).
     *
     * @param claim the key, operation, fingerprint, owner token, lease and time to live
     * @return what the claim found
     */
    ClaimResult claim(Claim claim);

    /**
     * Marks the owned record COMPLETED with its response, if {@code completion.ownerToken()} still
     * owns it (IN_PROGRESS, or COMMITTED by this owner's business transaction).
     *
     * @param completion the key, owner token, response and time to live
     * @return {@code false} when the claim was lost (nothing written)
     */
    boolean complete(Completion completion);

    /**
     * Deletes the owned IN_PROGRESS record so the client may try again, if {@code ownerToken} still
     * owns it.
     *
     * @param key the stored key
     * @param ownerToken the owner's token
     * @return {@code false} when the claim was lost (nothing deleted)
     */
    boolean release(String key, String ownerToken);

    /**
     * Extends the lease of the owned IN_PROGRESS (or COMMITTED) record, if {@code ownerToken} still owns it.
     *
     * @param key the stored key
     * @param ownerToken the owner's token
     * @param leaseMillis the new lease, from now
     * @return {@code false} when the claim was lost
     */
    boolean extendLease(String key, String ownerToken, long leaseMillis);

    /**
     * How many lease extensions this store sends in one round trip, for {@link #extendLeases}. The
     * default, 1, has the engine's lease keeper extend each lease on its own, so a key that stalls
     * (a row lock) holds up no other. A store whose batch is one round trip that no single key can
     * stall (a Redis pipeline) returns more, and ten thousand held keys cost a few round trips a
     * tick instead of one each.
     *
     * @return leases per batch, at least 1
     */
    default int leaseBatchSize() {
        return 1;
    }

    /**
     * Extends several leases at once (at most {@link #leaseBatchSize()}), each as
     * {@link #extendLease} would; the default extends them one by one. When this throws, none is
     * taken as extended: each is tried again at the next tick, which an extension allows (it only
     * moves the lease's end).
     *
     * @param leases the leases to extend
     * @return for each lease, in order, {@code false} when its claim was lost
     */
    default boolean[] extendLeases(List<LeaseExtension> leases) {
        boolean[] extended = new boolean[leases.size()];
        for (int i = 0; i < extended.length; i++) {
            LeaseExtension lease = leases.get(i);
            extended[i] = extendLease(lease.key(), lease.ownerToken(), lease.leaseMillis());
        }
        return extended;
    }

    /**
     * Reads the live record of {@code key}.
     *
     * @param key the stored key
     * @return the record, or {@code null} when there is none or it expired
     */
    @Nullable IdempotencyRecord find(String key);

    /**
     * Checks that the store answers, for health indicators.
     *
     * @throws IdempotencyStoreException when it does not
     */
    void ping();
}
