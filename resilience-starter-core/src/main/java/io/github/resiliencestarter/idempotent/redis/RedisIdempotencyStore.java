package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import io.github.resiliencestarter.idempotent.support.DuplicateShare;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Idempotency records in Redis. Each record is one string (its lines are described in
 * {@code prelude.lua}) with a TTL on every write: a string keeps a record near the size of a raw
 * {@code SET} of its body, where a hash with a body over 64 bytes tripled it.
 *
 * <p>Every command is a single-key Lua script (the {@code .lua} resources next to this class,
 * each loaded after the shared {@code prelude.lua}), so the store runs unchanged on Redis Cluster.
 * A claim writes an in-progress record that lives for the record's TTL, with its lease expiry on
 * Redis' own clock, or hands back the record already there in the same round trip, so a replay is
 * one command. While most recent claims of an operation found a record ({@link DuplicateShare}),
 * a claim first reads the key with a plain {@code GET}: a completed record is what the script
 * would hand back unchanged, so it is answered from the read, without running the script (or
 * waiting for replicas); anything else goes on to the script, which alone decides. An expired
 * lease is taken over only by a claim with the same fingerprint; another payload gets the record back and is refused (422), as on every store. Completion, release and
 * lease extension compare the owner token, so a former owner changes nothing.
 *
 * <p>Crash window: Redis cannot commit with the business database. If the process dies after the
 * business commit and before completion, the claim is taken over after its lease and a duplicate
 * may execute again; defend the business write itself (a unique business key), as the sample does.
 */
public class RedisIdempotencyStore implements IdempotencyStore, AutoCloseable {

    private static final RedisScript<String> CLAIM = script("claim", String.class);

    private static final RedisScript<Long> COMPLETE = script("complete", Long.class);

    private static final RedisScript<Long> RELEASE = script("release", Long.class);

    private static final RedisScript<Long> EXTEND = script("extend", Long.class);

    /** A {@code StringRedisTemplate} the application gave, or the store's own plain one on string serializers. */
    private final RedisTemplate<String, String> redis;

    private final RedisReplicaAcks acks;

    /** Per operation: whether its recent claims mostly found a record, so a claim reads first. */
    private final Map<String, DuplicateShare> duplicateShares = new ConcurrentHashMap<>();

    /** Opened on the first acknowledged write, when the application's client has started. */
    private volatile @Nullable LettuceAcknowledgedWrites acknowledgedWrites;

    /** Lease extensions per pipeline: one round trip, and Redis holds no per-key lock to stall one of them. */
    private static final int LEASE_BATCH = 256;

    /** Cleared once the connection refuses a pipeline (Jedis on a cluster): extensions go one by one. */
    private volatile boolean pipelines = true;

    /**
     * Creates the store; a write counts once the master answered.
     *
     * @param redis the template; its connection factory decides standalone, sentinel or cluster
     */
    public RedisIdempotencyStore(StringRedisTemplate redis) {
        this(redis, RedisReplicaAcks.NONE);
    }

    /**
     * Creates the store.
     *
     * @param redis the template; its connection factory decides standalone, sentinel or cluster
     * @param acks the replicas each write waits for (Lettuce on a standalone or Sentinel master)
     */
    public RedisIdempotencyStore(StringRedisTemplate redis, RedisReplicaAcks acks) {
        this((RedisTemplate<String, String>) redis, acks);
    }

    private RedisIdempotencyStore(RedisTemplate<String, String> redis, RedisReplicaAcks acks) {
        this.redis = redis;
        this.acks = acks;
    }

    /**
     * Creates the store on a template of its own. The template hands its callbacks the connection
     * itself: not a close-suppressing proxy built for every command (a JDK proxy per call, several
     * hundred bytes and a class-hierarchy walk), since the store never closes it; and not the
     * {@code DefaultStringRedisConnection} a {@code StringRedisTemplate} wraps around every
     * connection (a sixth of the bytes a first execution allocated, its converters made anew each
     * time), since the store's scripts and reads take their strings from the template's serializers.
     *
     * @param connectionFactory decides standalone, sentinel or cluster
     */
    public RedisIdempotencyStore(RedisConnectionFactory connectionFactory) {
        this(connectionFactory, RedisReplicaAcks.NONE);
    }

    /**
     * Creates the store on a template of its own.
     *
     * @param connectionFactory decides standalone, sentinel or cluster
     * @param acks the replicas each write waits for (Lettuce on a standalone or Sentinel master)
     */
    public RedisIdempotencyStore(RedisConnectionFactory connectionFactory, RedisReplicaAcks acks) {
        this(ownTemplate(connectionFactory), acks);
    }

    private static RedisTemplate<String, String> ownTemplate(RedisConnectionFactory connectionFactory) {
        RedisTemplate<String, String> template = new RedisTemplate<>();
        template.setConnectionFactory(connectionFactory);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.string());
        template.setHashKeySerializer(RedisSerializer.string());
        template.setHashValueSerializer(RedisSerializer.string());
        template.setExposeConnection(true);
        template.afterPropertiesSet();
        return template;
    }

    @Override
    public ClaimResult claim(Claim claim) {
        DuplicateShare duplicates = duplicateShares.computeIfAbsent(claim.name(), name -> new DuplicateShare());
        if (duplicates.readFirst()) {
            String settled = settledRecord(claim.key());
            if (settled != null) {
                duplicates.record(true);
                return ClaimResult.exists(RedisRecordFormat.parse(claim.key(), settled));
            }
        }
        ClaimResult result = runClaim(claim);
        duplicates.record(result.existing() != null);
        return result;
    }

    /**
     * The key's record when it is completed, which the claim script would hand back unchanged;
     * {@code null} for a missing key or one in progress, which the script then decides. The read
     * goes where the script would go, bounded the same way: with replicas to acknowledge, on the
     * store's own connection to the key's master, redirected when its slot moved. A read that fails
     * fails the claim, as the script would have on that connection: an unreachable master costs one
     * wait, not a wait for the read and another for the script (a failover rehearsal on Boot 4 lost
     * keys to that double wait, with the read on the application's connection).
     */
    private @Nullable String settledRecord(String key) {
        String text = acks.required() ? acknowledgedWrites().read(key) : call(() -> redis.opsForValue().get(key));
        return text != null && RedisRecordFormat.isCompleted(text) ? text : null;
    }

    private ClaimResult runClaim(Claim claim) {
        // the record never outlives its TTL, even while a long lease runs
        long lease = Math.max(1, Math.min(claim.leaseMillis(), claim.ttlMillis()));
        ReplicaAcknowledgement<String> written = write(CLAIM, claim.key(), claim.ownerToken(),
                Long.toString(lease), Long.toString(claim.ttlMillis()), claim.fingerprint(),
                RedisRecordFormat.escapeName(claim.name()));
        String answer = written.answer();
        if (answer == null) {
            throw new IdempotencyStoreException("Redis idempotency store gave no answer to a claim", null);
        }
        if ((answer.equals("1") || answer.equals("2")) && !written.enough()) {
            // run on it and a failover may promote a replica that never saw it: a duplicate would run again
            releaseQuietly(claim.key(), claim.ownerToken());
            throw refusal("claim", written);
        }
        return switch (answer) {
            case "1" -> ClaimResult.claimed();
            case "2" -> ClaimResult.takenOver();
            case "W" -> throw RedisRecordFormat.anotherType(null);
            default -> ClaimResult.exists(RedisRecordFormat.parse(claim.key(), answer));
        };
    }

    @Override
    public boolean complete(Completion completion) {
        String payload = completion.response().payload();
        String fingerprint = completion.fingerprint();
        String name = completion.name();
        // a record lost while its owner ran (evicted, or with a failed-over master) is written anyway
        String whenGone = fingerprint == null || name == null ? ""
                : RedisRecordFormat.claimLines(System.currentTimeMillis(), fingerprint, name);
        return acknowledged("completion", write(COMPLETE, completion.key(), completion.ownerToken(),
                payload == null ? "" : payload, completion.response().type(), Long.toString(completion.ttlMillis()),
                payload == null ? "0" : "1", whenGone)) == 1L;
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return acknowledged("release", write(RELEASE, key, ownerToken)) == 1L;
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        return acknowledged("lease extension", write(EXTEND, key, ownerToken,
                Long.toString(Math.max(1, leaseMillis)))) == 1L;
    }

    @Override
    public int leaseBatchSize() {
        // with replica acknowledgement each extension waits for its replicas on the connection that wrote it
        return acks.required() || !pipelines ? 1 : LEASE_BATCH;
    }

    /**
     * Sends the extensions in one pipeline: thousands of held keys cost a round trip per batch, not
     * per key.
     */
    @Override
    public boolean[] extendLeases(List<LeaseExtension> leases) {
        if (leases.size() < 2 || acks.required() || !pipelines) {
            return IdempotencyStore.super.extendLeases(leases);
        }
        List<Object> answers = call(() -> pipelined(leases));
        if (answers == null) {
            pipelines = false;
            return IdempotencyStore.super.extendLeases(leases);
        }
        if (answers.size() != leases.size()) {
            throw new IdempotencyStoreException("Redis answered " + answers.size() + " of " + leases.size()
                    + " pipelined lease extensions", null);
        }
        boolean[] extended = new boolean[answers.size()];
        for (int i = 0; i < extended.length; i++) {
            extended[i] = Long.valueOf(1L).equals(answers.get(i));
        }
        return extended;
    }

    /** The replies, or {@code null} when this connection takes no pipeline. */
    private @Nullable List<Object> pipelined(List<LeaseExtension> leases) {
        try {
            return redis.executePipelined(extending(leases));
        } catch (UnsupportedOperationException | InvalidDataAccessApiUsageException refused) {
            return null;
        } catch (DataAccessException ex) {
            if (!saysNoScript(ex)) {
                throw ex;
            }
            // the server lost its scripts (a restart, SCRIPT FLUSH): load it once and send the batch again
            redis.execute((RedisCallback<String>) connection -> connection.scriptingCommands()
                    .scriptLoad(EXTEND.getScriptAsString().getBytes(StandardCharsets.UTF_8)));
            return redis.executePipelined(extending(leases));
        }
    }

    private static RedisCallback<Object> extending(List<LeaseExtension> leases) {
        return connection -> {
            for (LeaseExtension lease : leases) {
                connection.scriptingCommands().evalSha(EXTEND.getSha1(), ReturnType.INTEGER, 1,
                        lease.key().getBytes(StandardCharsets.UTF_8),
                        lease.ownerToken().getBytes(StandardCharsets.UTF_8),
                        Long.toString(Math.max(1, lease.leaseMillis())).getBytes(StandardCharsets.UTF_8));
            }
            // a pipeline's callback returns nothing: its answers are the commands' replies, in order
            return null;
        };
    }

    private static boolean saysNoScript(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (String.valueOf(cause.getMessage()).contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    private void releaseQuietly(String key, String ownerToken) {
        try {
            call(() -> redis.execute(RELEASE, List.of(key), ownerToken));
        } catch (IdempotencyStoreException ignored) {
            // the claim lapses with its lease
        }
    }

    private <T> T acknowledged(String what, ReplicaAcknowledgement<T> written) {
        if (!written.enough()) {
            // not durable through a failover: the settlement retries it
            throw refusal(what, written);
        }
        T answer = written.answer();
        if (answer == null) {
            // each script ends in a number: no answer is a fault of the connection, not a verdict
            throw new IdempotencyStoreException("Redis gave no answer to the " + what + " script", null);
        }
        return answer;
    }

    /**
     * Runs a script and, when replicas must acknowledge it, {@code WAIT} after it on the
     * acknowledged writes' own connection.
     */
    private <T> ReplicaAcknowledgement<T> write(RedisScript<T> script, String key, String... args) {
        if (!acks.required()) {
            return ReplicaAcknowledgement.notAsked(call(() -> redis.execute(script, List.of(key), (Object[]) args)));
        }
        return acknowledgedWrites().write(script, key, args);
    }

    private LettuceAcknowledgedWrites acknowledgedWrites() {
        LettuceAcknowledgedWrites writes = acknowledgedWrites;
        if (writes != null) {
            return writes;
        }
        synchronized (this) {
            if (acknowledgedWrites == null) {
                acknowledgedWrites = LettuceAcknowledgedWrites.on(
                        Objects.requireNonNull(redis.getConnectionFactory(), "the template's connection factory"), acks);
            }
            return acknowledgedWrites;
        }
    }

    private IdempotencyStoreException refusal(String what, ReplicaAcknowledgement<?> written) {
        String why = written.unacknowledged() != null ? written.unacknowledged()
                : "acknowledged by " + written.replicas() + " of " + written.required() + " replicas"
                        + (acks.replicas() == RedisReplicaAcks.EVERY_REPLICA ? " (every replica the master lists)" : "")
                        + " within " + acks.timeout().toMillis() + " ms";
        return new IdempotencyStoreException("Redis " + what + " not acknowledged: " + why + "; the master may be "
                + "failing over, and a write it alone holds can be lost", null);
    }

    /** Closes the acknowledged writes' connection, if one was opened. */
    @Override
    public void close() {
        LettuceAcknowledgedWrites writes = acknowledgedWrites;
        if (writes != null) {
            writes.close();
        }
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
            IdempotencyRecordCorruptedException anotherType = RedisRecordFormat.anotherType(
                    ex.getMostSpecificCause().getMessage(), ex);
            if (anotherType != null) {
                throw anotherType;
            }
            throw new IdempotencyStoreException("Redis idempotency store unavailable: " + ex.getMessage(), ex);
        }
    }
}
