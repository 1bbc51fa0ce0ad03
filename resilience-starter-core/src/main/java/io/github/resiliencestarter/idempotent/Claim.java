package io.github.resiliencestarter.idempotent;

import java.util.Objects;

/**
 * A request to claim a key, as the engine hands it to {@link IdempotencyStore#claim(Claim)}.
 *
 * @param key the stored key
 * @param name the operation name (business type)
 * @param fingerprint the request fingerprint ({@code ""} when the payload is not checked)
 * @param ownerToken a token unique to this execution; later writes are conditional on it
 * @param leaseMillis how long the claim holds without an extension
 * @param ttlMillis how long the record lives
 */
public record Claim(String key, String name, String fingerprint, String ownerToken, long leaseMillis,
        long ttlMillis) {

    /** Checks the fields. */
    public Claim {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(ownerToken, "ownerToken");
        if (leaseMillis <= 0 || ttlMillis <= 0) {
            throw new IllegalArgumentException("lease and ttl must be positive");
        }
    }
}
