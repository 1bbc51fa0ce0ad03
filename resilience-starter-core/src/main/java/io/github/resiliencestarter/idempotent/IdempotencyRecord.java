package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * One stored idempotency record. Times are epoch milliseconds of the store's clock.
 *
 * @param key the stored key (prefix, name, scope and client key, encoded)
 * @param name the operation name (business type)
 * @param fingerprint SHA-256 of the request's canonical form, hex
 * @param status the state
 * @param ownerToken the token of the execution holding the claim; a store may keep it only while
 *     the record is IN_PROGRESS or COMMITTED (empty once COMPLETED)
 * @param leaseExpiresAt when an IN_PROGRESS claim may be taken over (and when a COMMITTED record
 *     stops waiting for its response)
 * @param expiresAt when the record disappears
 * @param response what is kept for replays: set when COMPLETED, else {@code null}
 * @param createdAt when the record was first claimed
 */
public record IdempotencyRecord(String key, String name, String fingerprint, IdempotencyStatus status,
        String ownerToken, long leaseExpiresAt, long expiresAt, @Nullable StoredResponse response, long createdAt) {

    /**
     * Whether an IN_PROGRESS claim's lease has run out at {@code now}.
     *
     * @param now epoch milliseconds
     * @return {@code true} when another execution may take the claim over
     */
    public boolean isLeaseExpired(long now) {
        return status == IdempotencyStatus.IN_PROGRESS && leaseExpiresAt <= now;
    }
}
