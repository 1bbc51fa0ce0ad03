package io.github.resiliencestarter.idempotent;

import java.util.Objects;

/**
 * One lease to extend, as the engine hands a batch of them to
 * {@link IdempotencyStore#extendLeases(java.util.List)}.
 *
 * @param key the stored key
 * @param ownerToken the owner's token; the extension is conditional on it
 * @param leaseMillis the new lease, from now
 */
public record LeaseExtension(String key, String ownerToken, long leaseMillis) {

    /** Checks the fields. */
    public LeaseExtension {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ownerToken, "ownerToken");
        if (leaseMillis <= 0) {
            throw new IllegalArgumentException("lease must be positive");
        }
    }
}
