package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Idempotency records in Redis. Each record is one hash ({@code st, ow, fp, nm, le, ex, ca, rs,
 * rt}) with a TTL on every write. Claim, takeover, completion, release and lease extension are
 * single-key Lua scripts that read Redis' own clock ({@code TIME}), compare numbers as numbers and
 * the owner token as a string, so they are atomic, agree across nodes with skewed clocks, and run
 * on Redis Cluster (no multi-key scripts).
 *
 * <p>Crash window: Redis cannot commit with the business database. If the process dies after the
 * business commit and before completion, the claim expires after its lease and a duplicate may
 * execute again; defend the business write itself (a unique business key), as the sample does.
 */
public class RedisIdempotencyStore implements IdempotencyStore {

    private static final String NOW = "local t = redis.call('TIME') "
            + "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) ";

    private static final String OWNED = "redis.call('HGET', KEYS[1], 'st') == 'P' "
            + "and redis.call('HGET', KEYS[1], 'ow') == ARGV[1]";

    private static final RedisScript<List> CLAIM = RedisScript.of(NOW
            + "local lease = tonumber(ARGV[4]) local ttl = tonumber(ARGV[5]) "
            + "local st = redis.call('HGET', KEYS[1], 'st') "
            + "if not st then "
            + "  redis.call('HSET', KEYS[1], 'st', 'P', 'ow', ARGV[1], 'fp', ARGV[2], 'nm', ARGV[3], "
            + "    'le', now + lease, 'ex', now + ttl, 'ca', now) "
            + "  redis.call('PEXPIRE', KEYS[1], ttl) "
            + "  return {1} "
            + "end "
            + "if st == 'P' and (tonumber(redis.call('HGET', KEYS[1], 'le')) or 0) <= now then "
            + "  redis.call('HSET', KEYS[1], 'ow', ARGV[1], 'le', now + lease) "
            + "  return {2} "
            + "end "
            + "local all = redis.call('HGETALL', KEYS[1]) "
            + "table.insert(all, 1, 0) "
            + "return all", List.class);

    private static final RedisScript<Long> COMPLETE = RedisScript.of(NOW
            + "if " + OWNED + " then "
            + "  local ttl = tonumber(ARGV[4]) "
            + "  redis.call('HSET', KEYS[1], 'st', 'C', 'rt', ARGV[3], 'ex', now + ttl) "
            + "  if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'rs', ARGV[2]) "
            + "  else redis.call('HDEL', KEYS[1], 'rs') end "
            + "  redis.call('PEXPIRE', KEYS[1], ttl) "
            + "  return 1 "
            + "end "
            + "return 0", Long.class);

    private static final RedisScript<Long> RELEASE = RedisScript.of(
            "if " + OWNED + " then redis.call('DEL', KEYS[1]) return 1 end return 0", Long.class);

    private static final RedisScript<Long> EXTEND = RedisScript.of(NOW
            + "if " + OWNED + " then redis.call('HSET', KEYS[1], 'le', now + tonumber(ARGV[2])) return 1 end "
            + "return 0", Long.class);

    private final StringRedisTemplate redis;

    /**
     * Creates the store.
     *
     * @param redis the template; its connection factory decides standalone, sentinel or cluster
     */
    public RedisIdempotencyStore(StringRedisTemplate redis) {
        this.redis = redis;
    }

    @Override
    public ClaimResult claim(String key, String name, String fingerprint, String ownerToken, long leaseMillis,
            long ttlMillis) {
        List<?> reply = call(() -> redis.execute(CLAIM, List.of(key), ownerToken, fingerprint, name,
                Long.toString(leaseMillis), Long.toString(ttlMillis)));
        long code = ((Number) reply.get(0)).longValue();
        if (code == 1) {
            return ClaimResult.claimed();
        }
        if (code == 2) {
            return ClaimResult.takenOver();
        }
        return ClaimResult.exists(toRecord(key, reply.subList(1, reply.size())));
    }

    @Override
    public boolean complete(String key, String ownerToken, String response, String responseType, long ttlMillis) {
        return call(() -> redis.execute(COMPLETE, List.of(key), ownerToken, response == null ? "" : response,
                responseType, Long.toString(ttlMillis), response == null ? "0" : "1")) == 1L;
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return call(() -> redis.execute(RELEASE, List.of(key), ownerToken)) == 1L;
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        return call(() -> redis.execute(EXTEND, List.of(key), ownerToken, Long.toString(leaseMillis))) == 1L;
    }

    @Override
    public IdempotencyRecord find(String key) {
        Map<Object, Object> hash = call(() -> redis.opsForHash().entries(key));
        if (hash == null || hash.isEmpty()) {
            return null;
        }
        return toRecord(key, hash);
    }

    @Override
    public void ping() {
        call(() -> redis.execute(connection -> connection.ping(), true));
    }

    private static IdempotencyRecord toRecord(String key, List<?> flat) {
        Map<Object, Object> hash = new java.util.HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            hash.put(flat.get(i), flat.get(i + 1));
        }
        return toRecord(key, hash);
    }

    private static IdempotencyRecord toRecord(String key, Map<Object, Object> hash) {
        Object state = hash.get("st");
        IdempotencyStatus status = "C".equals(state) ? IdempotencyStatus.COMPLETED
                : "P".equals(state) ? IdempotencyStatus.IN_PROGRESS : null;
        if (status == null || hash.get("fp") == null) {
            throw new IdempotencyRecordCorruptedException("unknown state in Redis", null);
        }
        try {
            return new IdempotencyRecord(key, (String) hash.get("nm"), (String) hash.get("fp"), status,
                    (String) hash.get("ow"), number(hash.get("le")), number(hash.get("ex")), (String) hash.get("rs"),
                    (String) hash.get("rt"), number(hash.get("ca")));
        } catch (NumberFormatException ex) {
            throw new IdempotencyRecordCorruptedException("a time in Redis is not a number", ex);
        }
    }

    private static long number(Object value) {
        return value == null ? 0 : Long.parseLong(value.toString());
    }

    private static <T> T call(Supplier<T> operation) {
        try {
            return operation.get();
        } catch (DataAccessException ex) {
            throw new IdempotencyStoreException("Redis idempotency store unavailable: " + ex.getMessage(), ex);
        }
    }
}
