package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.core.types.Expiration;

/**
 * Idempotency records in Redis. Each record is one string (its lines are described in
 * {@code prelude.lua}) with a TTL on every write: a string keeps a record near the size of a raw
 * {@code SET} of its body, where a hash with a body over 64 bytes tripled it.
 *
 * <p>A claim is one plain command, {@code SET key record NX PX lease GET} (Redis 7.0 or later):
 * it writes an in-progress record that lives as long as its lease, or hands back the record
 * already there, so a replay is one read. A lease left by a crashed owner ends by Redis' own
 * clock, and the next claim simply writes again. Completion, release and lease extension are
 * single-key Lua scripts (the {@code .lua} resources next to this class, each loaded after the
 * shared {@code prelude.lua}) that compare the owner token, so a former owner changes nothing; no
 * command touches two keys, so the store runs unchanged on Redis Cluster.
 *
 * <p>Crash window: Redis cannot commit with the business database. If the process dies after the
 * business commit and before completion, the claim expires after its lease and a duplicate may
 * execute again; defend the business write itself (a unique business key), as the sample does.
 */
public class RedisIdempotencyStore implements IdempotencyStore {

    private static final RedisScript<Long> COMPLETE = script("complete", Long.class);

    private static final RedisScript<Long> RELEASE = script("release", Long.class);

    private static final RedisScript<Long> EXTEND = script("extend", Long.class);

    private final StringRedisTemplate redis;

    /**
     * Creates the store.
     *
     * @param redis the template; its connection factory decides standalone, sentinel or cluster
     */
    public RedisIdempotencyStore(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * Creates the store on a template of its own. The template hands its callbacks the connection
     * itself rather than a close-suppressing proxy built for every command (a JDK proxy per call,
     * several hundred bytes and a class-hierarchy walk): the store never closes it.
     *
     * @param connectionFactory decides standalone, sentinel or cluster
     */
    public RedisIdempotencyStore(RedisConnectionFactory connectionFactory) {
        this(ownTemplate(connectionFactory));
    }

    private static StringRedisTemplate ownTemplate(RedisConnectionFactory connectionFactory) {
        StringRedisTemplate template = new StringRedisTemplate(connectionFactory);
        template.setExposeConnection(true);
        return template;
    }

    @Override
    public ClaimResult claim(Claim claim) {
        long now = System.currentTimeMillis();
        // the record never outlives its TTL, even while a long lease runs
        long lease = Math.max(1, Math.min(claim.leaseMillis(), claim.ttlMillis()));
        byte[] record = RedisRecordFormat.inProgress(claim.ownerToken(), now + lease, now, claim.fingerprint(),
                claim.name()).getBytes(StandardCharsets.UTF_8);
        byte[] key = claim.key().getBytes(StandardCharsets.UTF_8);
        byte[] existing = call(() -> redis.execute((RedisCallback<byte[]>) connection -> connection.stringCommands()
                .setGet(key, record, Expiration.milliseconds(lease), SetOption.SET_IF_ABSENT)));
        return existing == null ? ClaimResult.claimed()
                : ClaimResult.exists(RedisRecordFormat.parse(claim.key(), new String(existing, StandardCharsets.UTF_8)));
    }

    @Override
    public boolean complete(Completion completion) {
        String payload = completion.response().payload();
        long now = System.currentTimeMillis();
        String fingerprint = completion.fingerprint();
        String name = completion.name();
        // a lease that ran out while Redis was unreachable left no key: the work ran, so write it anyway
        String whenGone = fingerprint == null || name == null ? ""
                : RedisRecordFormat.claimLines(now, fingerprint, name);
        return call(() -> redis.execute(COMPLETE, List.of(completion.key()), completion.ownerToken(),
                payload == null ? "" : payload, completion.response().type(), Long.toString(completion.ttlMillis()),
                payload == null ? "0" : "1", Long.toString(now), whenGone)) == 1L;
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return call(() -> redis.execute(RELEASE, List.of(key), ownerToken)) == 1L;
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        return call(() -> redis.execute(EXTEND, List.of(key), ownerToken, Long.toString(Math.max(1, leaseMillis)),
                Long.toString(System.currentTimeMillis()))) == 1L;
    }

    @Override
    public @Nullable IdempotencyRecord find(String key) {
        String text = call(() -> redis.opsForValue().get(key));
        return text == null ? null : RedisRecordFormat.parse(key, text);
    }

    @Override
    public void ping() {
        call(() -> redis.execute(connection -> connection.ping(), true));
    }

    private static <T> RedisScript<T> script(String name, Class<T> resultType) {
        String body = lua("prelude") + lua(name);
        return RedisScript.of(body, resultType);
    }

    private static String lua(String name) {
        try (InputStream in = RedisIdempotencyStore.class.getResourceAsStream(name + ".lua")) {
            if (in == null) {
                throw new IllegalStateException("missing script " + name + ".lua next to " + RedisIdempotencyStore.class);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8) + "\n";
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static <T> T call(Supplier<T> operation) {
        try {
            return operation.get();
        } catch (DataAccessException ex) {
            String reply = String.valueOf(ex.getMostSpecificCause().getMessage());
            if (reply.startsWith("WRONGTYPE")) {
                // the server answered: the key holds something that is no record, not an outage
                throw new IdempotencyRecordCorruptedException("the key holds another Redis type", ex);
            }
            if (reply.startsWith("ERR syntax error")) {
                // SET ... NX GET is Redis 7.0's; an older server rejects the combination
                throw new IdempotencyStoreException("Redis idempotency store needs Redis 7.0 or later (SET NX GET): "
                        + ex.getMessage(), ex);
            }
            throw new IdempotencyStoreException("Redis idempotency store unavailable: " + ex.getMessage(), ex);
        }
    }
}
