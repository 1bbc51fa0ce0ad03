package io.github.resiliencestarter.it.extending;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.util.HashMap;
import java.util.Map;

/**
 * The example store of {@code docs/extending.md}: what a third-party store implements, written
 * as plainly as possible (one map, one lock). A real store puts the same decisions into its
 * server's atomic operations (a conditional write, a script, a unique key).
 */
public class LockedMapIdempotencyStore implements IdempotencyStore {

    private final Map<String, IdempotencyRecord> records = new HashMap<>();

    private final TimeSource time;

    /**
     * Creates the store.
     *
     * @param time the clock the store decides leases and expiry with
     */
    public LockedMapIdempotencyStore(TimeSource time) {
        this.time = time;
    }

    @Override
    public synchronized ClaimResult claim(Claim claim) {
        long now = time.epochMillis();
        IdempotencyRecord live = live(claim.key(), now);
        if (live == null) {
            records.put(claim.key(), new IdempotencyRecord(claim.key(), claim.name(), claim.fingerprint(),
                    IdempotencyStatus.IN_PROGRESS, claim.ownerToken(), now + claim.leaseMillis(),
                    now + claim.ttlMillis(), null, now));
            return ClaimResult.claimed();
        }
        if (live.isLeaseExpired(now) && live.fingerprint().equals(claim.fingerprint())) {
            // the previous owner stopped extending its lease: the same payload takes its claim over
            // (another payload gets the record back and is refused with 422)
            records.put(claim.key(), new IdempotencyRecord(live.key(), live.name(), live.fingerprint(),
                    IdempotencyStatus.IN_PROGRESS, claim.ownerToken(), now + claim.leaseMillis(),
                    now + claim.ttlMillis(), null, live.createdAt()));
            return ClaimResult.takenOver();
        }
        return ClaimResult.exists(live);
    }

    @Override
    public synchronized boolean complete(Completion completion) {
        long now = time.epochMillis();
        IdempotencyRecord owned = owned(completion.key(), completion.ownerToken(), now);
        if (owned == null) {
            return false;
        }
        records.put(owned.key(), new IdempotencyRecord(owned.key(), owned.name(), owned.fingerprint(),
                IdempotencyStatus.COMPLETED, owned.ownerToken(), owned.leaseExpiresAt(), now + completion.ttlMillis(),
                completion.response(), owned.createdAt()));
        return true;
    }

    @Override
    public synchronized boolean release(String key, String ownerToken) {
        return owned(key, ownerToken, time.epochMillis()) != null && records.remove(key) != null;
    }

    @Override
    public synchronized boolean extendLease(String key, String ownerToken, long leaseMillis) {
        long now = time.epochMillis();
        IdempotencyRecord owned = owned(key, ownerToken, now);
        if (owned == null) {
            return false;
        }
        records.put(key, new IdempotencyRecord(key, owned.name(), owned.fingerprint(), owned.status(), ownerToken,
                now + leaseMillis, owned.expiresAt(), null, owned.createdAt()));
        return true;
    }

    @Override
    public synchronized IdempotencyRecord find(String key) {
        return live(key, time.epochMillis());
    }

    @Override
    public void ping() {
        // nothing to reach
    }

    private IdempotencyRecord live(String key, long now) {
        IdempotencyRecord record = records.get(key);
        if (record != null && record.expiresAt() <= now) {
            records.remove(key);
            return null;
        }
        return record;
    }

    /** The record when {@code ownerToken} holds it in progress, else {@code null}: every owned write checks this. */
    private IdempotencyRecord owned(String key, String ownerToken, long now) {
        IdempotencyRecord record = live(key, now);
        return record != null && record.status() == IdempotencyStatus.IN_PROGRESS
                && record.ownerToken().equals(ownerToken) ? record : null;
    }
}
