package io.github.resiliencestarter.idempotent.support;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A bounded in-process cache of COMPLETED records in front of any store, so that replays of a
 * completed key need not cross the network each time.
 *
 * <p>Only COMPLETED records are kept: they are immutable until they expire (no store operation
 * changes a completed record; {@code release} and {@code extendLease} act on IN_PROGRESS records
 * only), so a cached copy answers exactly what the store would. IN_PROGRESS and COMMITTED records
 * are never cached: their state moves. An entry lives until the earlier of the record's own expiry
 * and this cache's time to live; a claim or read of any other key goes to the store. The cache
 * therefore changes no exactly-once guarantee: a first execution always claims in the store.
 *
 * <p>Expiry is judged by this node's clock against the record's expiry, which the store decided
 * with its own; with skewed clocks a replay may be served for that skew after the store has
 * expired the record, never a second execution.
 */
public class NearCacheIdempotencyStore extends ForwardingIdempotencyStore {

    /** Default bound on cached records. */
    public static final long DEFAULT_MAXIMUM_SIZE = 10_000;

    /** Default longest time a record stays cached. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(10);

    private final Cache<String, IdempotencyRecord> completed;

    private final TimeSource time;

    /**
     * Wraps a store.
     *
     * @param delegate the store that owns the records
     * @param maximumSize most records kept (least recently used go first), at least 1
     * @param ttl longest time a record stays cached, positive
     * @param time this node's wall clock, compared with the records' expiry
     */
    public NearCacheIdempotencyStore(IdempotencyStore delegate, long maximumSize, Duration ttl, TimeSource time) {
        super(delegate);
        if (maximumSize < 1) {
            throw new InvalidSettingException("maximumSize", "must be at least 1", maximumSize);
        }
        if (ttl == null || ttl.isZero() || ttl.isNegative()) {
            throw new InvalidSettingException("ttl", "must be positive", ttl);
        }
        this.time = time;
        this.completed = UntilRecordExpiry.cache(maximumSize, ttl.toNanos(), time);
    }

    @Override
    public ClaimResult claim(Claim claim) {
        IdempotencyRecord cached = cached(claim.key());
        if (cached != null) {
            return ClaimResult.exists(cached);
        }
        ClaimResult result = super.claim(claim);
        if (result.existing() != null) {
            remember(claim.key(), result.existing());
        }
        return result;
    }

    @Override
    public @Nullable IdempotencyRecord find(String key) {
        IdempotencyRecord cached = cached(key);
        if (cached != null) {
            return cached;
        }
        IdempotencyRecord found = super.find(key);
        if (found != null) {
            remember(key, found);
        }
        return found;
    }

    /**
     * Hits, misses and evictions so far, for metrics.
     *
     * @return the cache's statistics
     */
    public CacheStats stats() {
        return completed.stats();
    }

    /**
     * The cache itself, for metrics binders (such as Micrometer's {@code CaffeineCacheMetrics}).
     *
     * @return the cache of completed records by stored key
     */
    public Cache<String, IdempotencyRecord> cache() {
        return completed;
    }

    private @Nullable IdempotencyRecord cached(String key) {
        IdempotencyRecord record = completed.getIfPresent(key);
        if (record != null && record.expiresAt() <= time.epochMillis()) {
            // expired by the record's own clock before the cache's timer fired
            completed.invalidate(key);
            return null;
        }
        return record;
    }

    private void remember(String key, IdempotencyRecord record) {
        if (record.status() == IdempotencyStatus.COMPLETED && record.expiresAt() > time.epochMillis()) {
            completed.put(key, record);
        }
    }

    /**
     * An entry lives until the earlier of the record's expiry and the cache's time to live. Builds
     * the cache too, so that loading the outer class (for its defaults) needs no Caffeine.
     */
    private record UntilRecordExpiry(long ttlNanos, TimeSource time) implements Expiry<String, IdempotencyRecord> {

        static Cache<String, IdempotencyRecord> cache(long maximumSize, long ttlNanos, TimeSource time) {
            // the cache's own time is the starter's clock, so both expiries are judged on one clock
            return Caffeine.newBuilder().maximumSize(maximumSize).recordStats().ticker(time::nanoTime)
                    .expireAfter(new UntilRecordExpiry(ttlNanos, time)).build();
        }

        @Override
        public long expireAfterCreate(String key, IdempotencyRecord record, long currentTime) {
            long untilExpiry = TimeUnit.MILLISECONDS.toNanos(Math.max(0, record.expiresAt() - time.epochMillis()));
            return Math.min(ttlNanos, untilExpiry);
        }

        @Override
        public long expireAfterUpdate(String key, IdempotencyRecord record, long currentTime,
                long currentDuration) {
            return expireAfterCreate(key, record, currentTime);
        }

        @Override
        public long expireAfterRead(String key, IdempotencyRecord record, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }
}
