package io.github.resiliencestarter.idempotent.simulation;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The records of a simulated Redis master, with the semantics of the starter's Lua scripts: a key
 * lives its time to live; a claim takes over an IN_PROGRESS record whose lease ran out only with
 * the same fingerprint; completion, release and extension are conditional on the owner token
 * (whatever the lease), and a completion that names its fingerprint is written when the key has
 * vanished meanwhile. Each operation is atomic, as a script is; times are the store's clock.
 */
final class SimStore {

    private final Map<String, IdempotencyRecord> records = new HashMap<>();

    private final LongSupplier clock;

    SimStore(LongSupplier clock) {
        this.clock = clock;
    }

    ClaimResult claim(Claim claim) {
        long now = clock.getAsLong();
        IdempotencyRecord live = live(claim.key(), now);
        if (live == null) {
            records.put(claim.key(), new IdempotencyRecord(claim.key(), claim.name(), claim.fingerprint(),
                    IdempotencyStatus.IN_PROGRESS, claim.ownerToken(), now + Math.min(claim.leaseMillis(),
                            claim.ttlMillis()), now + claim.ttlMillis(), null, now));
            return ClaimResult.claimed();
        }
        if (live.isLeaseExpired(now) && live.fingerprint().equals(claim.fingerprint())) {
            records.put(claim.key(), new IdempotencyRecord(claim.key(), live.name(), live.fingerprint(),
                    IdempotencyStatus.IN_PROGRESS, claim.ownerToken(), now + claim.leaseMillis(),
                    now + claim.ttlMillis(), null, live.createdAt()));
            return ClaimResult.takenOver();
        }
        return ClaimResult.exists(live);
    }

    boolean complete(Completion completion) {
        long now = clock.getAsLong();
        IdempotencyRecord owned = owned(completion.key(), completion.ownerToken(), now);
        IdempotencyRecord live = live(completion.key(), now);
        String fingerprint;
        String name;
        long created;
        if (owned != null) {
            fingerprint = owned.fingerprint();
            name = owned.name();
            created = owned.createdAt();
        } else if (completion.fingerprint() != null && live == null) {
            fingerprint = completion.fingerprint();
            name = completion.name() != null ? completion.name() : "";
            created = now;
        } else {
            return false;
        }
        records.put(completion.key(), new IdempotencyRecord(completion.key(), name, fingerprint,
                IdempotencyStatus.COMPLETED, "", 0, now + completion.ttlMillis(), completion.response(), created));
        return true;
    }

    boolean release(String key, String owner) {
        if (owned(key, owner, clock.getAsLong()) == null) {
            return false;
        }
        records.remove(key);
        return true;
    }

    boolean extend(String key, String owner, long leaseMillis) {
        long now = clock.getAsLong();
        IdempotencyRecord owned = owned(key, owner, now);
        if (owned == null) {
            return false;
        }
        records.put(key, new IdempotencyRecord(key, owned.name(), owned.fingerprint(), owned.status(), owner,
                now + leaseMillis, Math.max(owned.expiresAt(), now + leaseMillis), null, owned.createdAt()));
        return true;
    }

    @Nullable IdempotencyRecord find(String key) {
        return live(key, clock.getAsLong());
    }

    /** The key's record as held, expired or not: what a write replicates. */
    @Nullable IdempotencyRecord raw(String key) {
        return records.get(key);
    }

    /** Applies a replicated write: the key's record as the master holds it. */
    void restore(String key, @Nullable IdempotencyRecord record) {
        if (record == null) {
            records.remove(key);
        } else {
            records.put(key, record);
        }
    }

    /** A full resynchronisation: every record as {@code master} holds them, nothing of its own kept. */
    void copyFrom(SimStore master) {
        records.clear();
        records.putAll(master.records);
    }

    private @Nullable IdempotencyRecord owned(String key, String owner, long now) {
        IdempotencyRecord live = live(key, now);
        return live != null && live.status() == IdempotencyStatus.IN_PROGRESS && live.ownerToken().equals(owner)
                ? live : null;
    }

    private @Nullable IdempotencyRecord live(String key, long now) {
        IdempotencyRecord record = records.get(key);
        if (record != null && record.expiresAt() <= now) {
            records.remove(key);
            return null;
        }
        return record;
    }
}
