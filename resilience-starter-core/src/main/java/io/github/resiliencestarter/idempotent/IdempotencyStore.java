package io.github.resiliencestarter.idempotent;

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
