package io.github.resiliencestarter.idempotent;

/**
 * Where idempotency records live. Every write that changes an owned record is conditional on the
 * owner token, so an execution that lost its claim (its lease expired and another took over) can
 * never overwrite or delete the new owner's record. Implementations throw
 * {@link IdempotencyStoreException} when the store cannot be reached.
 *
 * <p>Times are decided by the store (for example Redis {@code TIME} or the database clock where
 * possible), so nodes with skewed clocks agree on leases.
 */
public interface IdempotencyStore {

    /**
     * Atomically claims {@code key}: creates an IN_PROGRESS record when none is live, takes over an
     * IN_PROGRESS record whose lease has expired, or reports the live record.
     *
     * @param key the stored key
     * @param name the operation name
     * @param fingerprint the request fingerprint
     * @param ownerToken a token unique to this execution
     * @param leaseMillis how long the claim holds without an extension
     * @param ttlMillis how long the record lives
     * @return what the claim found
     */
    ClaimResult claim(String key, String name, String fingerprint, String ownerToken, long leaseMillis,
            long ttlMillis);

    /**
     * Marks the owned record COMPLETED with its response, if {@code ownerToken} still owns it.
     *
     * @param key the stored key
     * @param ownerToken the owner's token
     * @param response the encoded response, or {@code null}
     * @param responseType what {@code response} holds
     * @param ttlMillis how long the completed record lives from now
     * @return {@code false} when the claim was lost (nothing written)
     */
    boolean complete(String key, String ownerToken, String response, String responseType, long ttlMillis);

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
     * Extends the lease of the owned IN_PROGRESS record, if {@code ownerToken} still owns it.
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
    IdempotencyRecord find(String key);

    /**
     * Checks that the store answers, for health indicators.
     *
     * @throws IdempotencyStoreException when it does not
     */
    void ping();
}
