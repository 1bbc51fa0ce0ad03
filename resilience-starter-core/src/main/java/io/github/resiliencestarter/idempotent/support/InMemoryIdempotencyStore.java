package io.github.resiliencestarter.idempotent.support;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Records in this JVM's memory: correct for one node only, lost on restart. For tests and for the
 * embedded default; a startup warning says so when it is chosen automatically.
 */
public class InMemoryIdempotencyStore implements IdempotencyStore {

    /**
     * The fewest claims between two sweeps of expired records. A sweep waits for at least as many
     * claims as records were left by the last one, so each claim pays for scanning about two
     * records, however large the map, and the map stays bounded by the TTL.
     */
    static final int SWEEP_EVERY = 4096;

    private final AtomicInteger claimsSinceSweep = new AtomicInteger();

    private volatile int sweepAfter = SWEEP_EVERY;

    private final ConcurrentHashMap<String, IdempotencyRecord> records = new ConcurrentHashMap<>();

    private final TimeSource time;

    /** A store on the system clock. */
    public InMemoryIdempotencyStore() {
        this(TimeSource.SYSTEM);
    }

    /**
     * A store on the given time source.
     *
     * @param time the time source
     */
    public InMemoryIdempotencyStore(TimeSource time) {
        this.time = time;
    }

    @Override
    public ClaimResult claim(Claim claim) {
        long now = time.epochMillis();
        IdempotencyRecord live = records.get(claim.key());
        if (live != null && live.expiresAt() > now && !live.isLeaseExpired(now)) {
            // a replay or a duplicate in flight: answered by a read, without locking the entry
            return ClaimResult.exists(live);
        }
        if (claimsSinceSweep.incrementAndGet() >= sweepAfter) {
            claimsSinceSweep.set(0);
            sweep(now);
            sweepAfter = Math.max(SWEEP_EVERY, records.size());
        }
        AtomicReference<ClaimResult> result = new AtomicReference<>();
        records.compute(claim.key(), (k, current) -> {
            if (current == null || current.expiresAt() <= now) {
                result.set(ClaimResult.claimed());
                return new IdempotencyRecord(k, claim.name(), claim.fingerprint(), IdempotencyStatus.IN_PROGRESS,
                        claim.ownerToken(), now + claim.leaseMillis(), now + claim.ttlMillis(), null, now);
            }
            // an expired lease is taken over only by the same payload; another gets the record (422)
            if (current.isLeaseExpired(now) && current.fingerprint().equals(claim.fingerprint())) {
                result.set(ClaimResult.takenOver());
                return new IdempotencyRecord(k, current.name(), current.fingerprint(), IdempotencyStatus.IN_PROGRESS,
                        claim.ownerToken(), now + claim.leaseMillis(), now + claim.ttlMillis(), null,
                        current.createdAt());
            }
            result.set(ClaimResult.exists(current));
            return current;
        });
        return result.get();
    }

    @Override
    public boolean complete(Completion completion) {
        long now = time.epochMillis();
        return owned(completion.key(), completion.ownerToken(), current -> new IdempotencyRecord(current.key(),
                current.name(), current.fingerprint(), IdempotencyStatus.COMPLETED, current.ownerToken(),
                current.leaseExpiresAt(), now + completion.ttlMillis(), completion.response(), current.createdAt()));
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return owned(key, ownerToken, current -> null);
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        long now = time.epochMillis();
        return owned(key, ownerToken, current -> new IdempotencyRecord(key, current.name(), current.fingerprint(),
                current.status(), ownerToken, now + leaseMillis, current.expiresAt(), null, current.createdAt()));
    }

    @Override
    public @Nullable IdempotencyRecord find(String key) {
        IdempotencyRecord record = records.get(key);
        return record == null || record.expiresAt() <= time.epochMillis() ? null : record;
    }

    @Override
    public void ping() {
        // memory is always there
    }

    /**
     * Removes every record expired at {@code now}; a record replaced meanwhile stays (the removal
     * compares the value).
     *
     * @param now the current time in epoch milliseconds
     */
    void sweep(long now) {
        records.values().removeIf(record -> record.expiresAt() <= now);
    }

    /**
     * The number of records held, expired ones not yet swept included.
     *
     * @return the record count
     */
    int size() {
        return records.size();
    }

    private boolean owned(String key, String ownerToken,
            Function<IdempotencyRecord, @Nullable IdempotencyRecord> change) {
        boolean[] changed = {false};
        records.computeIfPresent(key, (k, current) -> {
            if (current.status() != IdempotencyStatus.IN_PROGRESS || !current.ownerToken().equals(ownerToken)) {
                return current;
            }
            changed[0] = true;
            return change.apply(current);
        });
        return changed[0];
    }
}
