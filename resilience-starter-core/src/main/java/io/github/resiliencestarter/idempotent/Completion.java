package io.github.resiliencestarter.idempotent;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request to complete an owned record, as the engine hands it to
 * {@link IdempotencyStore#complete(Completion)}.
 *
 * @param key the stored key
 * @param ownerToken the owner's token; nothing is written when another owner holds the key
 * @param response what to keep for replays
 * @param ttlMillis how long the completed record lives from now
 * @param fingerprint the claim's fingerprint, or {@code null}; with it and {@code name}, a store
 *     whose in-progress record lapsed while it was unreachable (a Redis key whose lease ran out)
 *     writes the completion anyway when nobody has claimed the key since: the work has run, and a
 *     record that vanished would let a duplicate run it again
 * @param name the operation name, or {@code null}
 */
public record Completion(String key, String ownerToken, StoredResponse response, long ttlMillis,
        @Nullable String fingerprint, @Nullable String name) {

    /**
     * A completion of a record that must still be held by its owner.
     *
     * @param key the stored key
     * @param ownerToken the owner's token
     * @param response what to keep for replays
     * @param ttlMillis how long the completed record lives from now
     */
    public Completion(String key, String ownerToken, StoredResponse response, long ttlMillis) {
        this(key, ownerToken, response, ttlMillis, null, null);
    }

    /** Checks the fields. */
    public Completion {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ownerToken, "ownerToken");
        Objects.requireNonNull(response, "response");
        if (ttlMillis <= 0) {
            throw new IllegalArgumentException("ttl must be positive");
        }
    }
}
