package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.NamedNode;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The store's writes that replicas must acknowledge: each script and its {@code WAIT} on a Lettuce
 * connection of the store's own to the key's master ({@link MasterConnections}), opened from the
 * application's client, so a {@code WAIT} never holds up the application's shared connection.
 *
 * <p>An acknowledgement counts only when the script and its {@code WAIT} ran on the same
 * connection to the same server: a write whose connection's epoch moved between sending the script
 * and reading the {@code WAIT}'s answer is not acknowledged ({@link ConnectionEpochs}; the
 * settlement, or the client, tries it again).
 *
 * <p>"Every replica" is every replica the deployment has: through Sentinel, every replica the
 * sentinels know of, down ones included; and never fewer than the master lists in {@code ROLE} now
 * (both read again on each new connection, each second, and after a {@code WAIT} that fell short);
 * at least one. Not only the replicas the
 * master lists now: a master cut off while Sentinel promoted one of its replicas still lists the
 * others until they are moved, and their acknowledgement is thrown away with them (the nemesis
 * run and the simulation both found it). So a setup that lost a replica refuses to acknowledge
 * until the replica is back.
 */
final class LettuceAcknowledgedWrites implements AutoCloseable {

    /** What the client waits beyond the server's own timeout before giving up on the reply. */
    private static final long REPLY_GRACE_MILLIS = 1_000;

    /** How long a count of a master's replicas is trusted. */
    private static final long REPLICAS_FRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final MasterConnections masters;

    private final RedisReplicaAcks acks;

    /** Per connection (by identity): the replica count "every replica" stands for, and when it was read. */
    private final Map<StatefulRedisConnection<String, String>, Replicas> replicas = new ConcurrentHashMap<>();

    private LettuceAcknowledgedWrites(MasterConnections masters, RedisReplicaAcks acks) {
        this.masters = masters;
        this.acks = acks;
    }

    /**
     * The acknowledged writes of a store on {@code factory}.
     *
     * @param factory the application's connection factory
     * @param acks how many replicas, and how long
     * @return the writes
     * @throws IdempotencyStoreException when the factory is not Lettuce
     */
    static LettuceAcknowledgedWrites on(RedisConnectionFactory factory, RedisReplicaAcks acks) {
        AbstractRedisClient client = factory instanceof LettuceConnectionFactory lettuce
                ? lettuce.getRequiredNativeClient() : null;
        if (client instanceof RedisClient single) {
            RedisSentinelConfiguration sentinels = ((LettuceConnectionFactory) factory).getSentinelConfiguration();
            NamedNode master = sentinels != null ? sentinels.getMaster() : null;
            return new LettuceAcknowledgedWrites(new SingleMasterConnection(single,
                    master != null ? master.getName() : null), acks);
        }
        if (client instanceof RedisClusterClient cluster) {
            return new LettuceAcknowledgedWrites(new ClusterMasterConnections(cluster), acks);
        }
        throw new IdempotencyStoreException("Redis replica acknowledgement needs Lettuce; this connection factory is "
                + factory.getClass().getName() + (client != null ? " with a " + client.getClass().getSimpleName() : "")
                + ". Set resilience.idempotent.redis.replica-acks to 0, or use the JDBC store where a failover "
                + "must never duplicate.", null);
    }

    /**
     * Runs {@code script} and then {@code WAIT} on a connection to the key's master.
     *
     * @param script the script
     * @param key its one key
     * @param args its arguments
     * @param <T> the script's result type ({@code String} or {@code Long})
     * @return its answer and whether enough replicas acknowledged it
     */
    <T> ReplicaAcknowledgement<T> write(RedisScript<T> script, String key, String... args) {
        try {
            return writeOn(masters.forKey(key), script, key, args);
        } catch (RedirectedException redirect) {
            // the server refused before the script ran and named the key's master: send it there, once
            try {
                return writeOn(masters.redirectedTo(redirect), script, key, args);
            } catch (RedirectedException notFollowed) {
                throw notFollowed.asRefusal();
            }
        }
    }

    private <T> ReplicaAcknowledgement<T> writeOn(StatefulRedisConnection<String, String> open, RedisScript<T> script,
            String key, String... args) {
        ConnectionEpochs epochs = masters.epochs();
        long before = epochs.of(open);
        int required = required(open);
        RedisAsyncCommands<String, String> commands = open.async();
        ScriptOutputType output = script.getResultType() == Long.class ? ScriptOutputType.INTEGER
                : ScriptOutputType.VALUE;
        String[] keys = {key};
        long timeout = acks.timeout().toMillis();
        RedisFuture<T> answer = commands.evalsha(script.getSha1(), output, keys, args);
        RedisFuture<Long> acknowledged = commands.waitForReplication(required, timeout);
        T result;
        try {
            try {
                result = awaitKeyed(answer, "the script");
            } catch (IdempotencyStoreException ex) {
                if (!(ex.getCause() instanceof RedisNoScriptException)) {
                    throw ex;
                }
                // the server lost its scripts (a restart, SCRIPT FLUSH, a promoted replica): send the body
                await(acknowledged, "WAIT");
                answer = commands.eval(script.getScriptAsString(), output, keys, args);
                acknowledged = commands.waitForReplication(required, timeout);
                result = awaitKeyed(answer, "the script");
            }
        } catch (RedirectedException redirect) {
            if (epochs.of(open) != before) {
                // reconnected in between: Lettuce sent the script again, and the first may have run before the
                // server was demoted, so it is not sent a third time
                throw redirect.asRefusal();
            }
            throw redirect;
        }
        Long count = await(acknowledged, "WAIT");
        long replicasAcknowledged = count == null ? 0 : count;
        if (epochs.of(open) != before) {
            // reconnected in between: the WAIT may have reached another server than the write
            return new ReplicaAcknowledgement<>(result, 0, required, "the connection was re-established between the write "
                    + "and WAIT");
        }
        if (replicasAcknowledged < required) {
            // a replica may have left: count them again before the next write
            replicas.remove(open);
        }
        return new ReplicaAcknowledgement<>(result, replicasAcknowledged, required, null);
    }

    /**
     * Reads {@code key} from its master on the connection its writes take, bounded and redirected
     * as they are; waits for no replica.
     *
     * @param key the key
     * @return its text, or {@code null} when there is none
     * @throws IdempotencyStoreException when the master does not answer
     * @throws IdempotencyRecordCorruptedException when the key holds another Redis type
     */
    @Nullable String read(String key) {
        try {
            try {
                return awaitKeyed(masters.forKey(key).async().get(key), "GET");
            } catch (RedirectedException redirect) {
                try {
                    return awaitKeyed(masters.redirectedTo(redirect).async().get(key), "GET");
                } catch (RedirectedException notFollowed) {
                    throw notFollowed.asRefusal();
                }
            }
        } catch (IdempotencyStoreException ex) {
            Throwable cause = ex.getCause();
            IdempotencyRecordCorruptedException anotherType = RedisRecordFormat.anotherType(
                    cause != null ? cause.getMessage() : null, cause);
            if (anotherType != null) {
                throw anotherType;
            }
            throw ex;
        }
    }

    private int required(StatefulRedisConnection<String, String> open) {
        if (acks.replicas() != RedisReplicaAcks.EVERY_REPLICA) {
            return acks.replicas();
        }
        long epoch = masters.epochs().of(open);
        Replicas known = replicas.get(open);
        if (known != null && known.epoch == epoch && System.nanoTime() - known.readAt < REPLICAS_FRESH_NANOS) {
            return known.count;
        }
        List<Object> role = await(open.async().role(), "ROLE");
        if (role != null && !role.isEmpty() && !"master".equals(String.valueOf(role.get(0)))) {
            // demoted since the topology was read: its slots are another master's now, the one it replicates
            masters.redirected();
            RedirectedException redirect = RedirectedException.fromReplicaRole(role);
            throw redirect != null ? redirect : new IdempotencyStoreException("Redis: the server written to is a "
                    + role.get(0) + " now, no longer a master; the topology is read again", null);
        }
        int count = role != null && role.size() > 2 && role.get(2) instanceof List<?> listed ? listed.size() : 0;
        int deployed = masters.knownReplicas(open);
        Replicas read = new Replicas(Math.max(1, Math.max(count, deployed)), epoch, System.nanoTime());
        replicas.put(open, read);
        return read.count;
    }

    /**
     * {@link #await}, for a command on a key: a {@code MOVED} answer becomes a
     * {@link RedirectedException} naming the key's master now. Only a keyed command's: its refusal
     * means it did not run.
     */
    private <T> T awaitKeyed(RedisFuture<T> reply, String what) {
        try {
            return await(reply, what);
        } catch (IdempotencyStoreException ex) {
            Throwable cause = ex.getCause();
            RedirectedException redirect = cause == null ? null : RedirectedException.fromMoved(what, cause);
            throw redirect != null ? redirect : ex;
        }
    }

    private <T> T await(RedisFuture<T> reply, String what) {
        long timeout = acks.timeout().toMillis() + REPLY_GRACE_MILLIS;
        try {
            return reply.get(timeout, TimeUnit.MILLISECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IdempotencyStoreException("interrupted while Redis answered " + what, ex);
        } catch (ExecutionException ex) {
            Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
            if (String.valueOf(cause.getMessage()).startsWith("MOVED")) {
                // the slot has another master now (a failover, a resharding)
                masters.redirected();
            }
            throw new IdempotencyStoreException("Redis " + what + " failed: " + cause.getMessage(), cause);
        } catch (TimeoutException ex) {
            reply.cancel(false);
            throw new IdempotencyStoreException("Redis gave no answer to " + what + " within " + timeout + " ms", ex);
        }
    }

    @Override
    public void close() {
        masters.close();
    }

    /** How many replicas "every replica" stood for on a connection's epoch, read at a time. */
    private record Replicas(int count, long epoch, long readAt) {
    }
}
