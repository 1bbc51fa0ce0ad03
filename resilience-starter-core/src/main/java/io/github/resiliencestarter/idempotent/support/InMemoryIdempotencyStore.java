package io.github.resiliencestarter.idempotent.support;

import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Records in this JVM's memory: correct for one node only, lost on restart. For tests and for the
 * embedded default; a startup warning says so when it is chosen automatically.
 */
public class InMemoryIdempotencyStore implements IdempotencyStore {

    private final ConcurrentHashMap<String, IdempotencyRecord> records = new ConcurrentHashMap<>();

    private final Clock clock;

    /** A store on the system clock. */
    public InMemoryIdempotencyStore() {
        this(Clock.systemUTC());
    }

    /**
     * A store on the given clock.
     *
     * @param clock the clock
     */
    public InMemoryIdempotencyStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public ClaimResult claim(String key, String name, String fingerprint, String ownerToken, long leaseMillis,
            long ttlMillis) {
        long now = clock.millis();
        AtomicReference<ClaimResult> result = new AtomicReference<>();
        records.compute(key, (k, current) -> {
            if (current == null || current.expiresAt() <= now) {
                result.set(ClaimResult.claimed());
                return new IdempotencyRecord(k, name, fingerprint, IdempotencyStatus.IN_PROGRESS, ownerToken,
                        now + leaseMillis, now + ttlMillis, null, null, now);
            }
            if (current.isLeaseExpired(now)) {
                result.set(ClaimResult.takenOver());
                return new IdempotencyRecord(k, current.name(), current.fingerprint(), IdempotencyStatus.IN_PROGRESS,
                        ownerToken, now + leaseMillis, current.expiresAt(), null, null, current.createdAt());
            }
            result.set(ClaimResult.exists(current));
            return current;
        });
        return result.get();
    }

    @Override
    public boolean complete(String key, String ownerToken, String response, String responseType, long ttlMillis) {
        long now = clock.millis();
        return owned(key, ownerToken, current -> new IdempotencyRecord(key, current.name(), current.fingerprint(),
                IdempotencyStatus.COMPLETED, ownerToken, current.leaseExpiresAt(), now + ttlMillis, response,
                responseType, current.createdAt()));
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return owned(key, ownerToken, current -> null);
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        long now = clock.millis();
        return owned(key, ownerToken, current -> new IdempotencyRecord(key, current.name(), current.fingerprint(),
                current.status(), ownerToken, now + leaseMillis, current.expiresAt(), null, null,
                current.createdAt()));
    }

    @Override
    public IdempotencyRecord find(String key) {
        IdempotencyRecord record = records.get(key);
        return record == null || record.expiresAt() <= clock.millis() ? null : record;
    }

    @Override
    public void ping() {
        // memory is always there
    }

    private boolean owned(String key, String ownerToken,
            UnaryOperator<IdempotencyRecord> change) {
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
