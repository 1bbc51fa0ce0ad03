package io.github.resiliencestarter.idempotent;

import java.util.Objects;

/**
 * A request to complete an owned record, as the engine hands it to
 * {@link IdempotencyStore#complete(Completion)}.
 *
 * @param key the stored key
 * @param ownerToken the owner's token; nothing is written when another owner holds the key
 * @param response what to keep for replays
 * @param ttlMillis how long the completed record lives from now
 */
public record Completion(String key, String ownerToken, StoredResponse response, long ttlMillis) {

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
