package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The store's writes that replicas must acknowledge: each script and its {@code WAIT} on a Lettuce
 * connection of their own, opened from the application's client (its master, sentinels,
 * credentials and TLS), so a {@code WAIT} never holds up the application's shared connection.
 *
 * <p>An acknowledgement counts only when the script and its {@code WAIT} ran on the same
 * connection to the same server. Lettuce re-sends what was unanswered when a connection breaks;
 * a {@code WAIT} re-sent after a failover would reach the promoted master, which counts its own
 * replicas for a write it never saw. So every connect and disconnect of this connection moves an
 * epoch, and a write whose epoch moved between sending the script and reading the {@code WAIT}'s
 * answer is not acknowledged (the settlement, or the client, tries it again).
 *
 * <p>"Every replica" is the number of replicas the master lists in {@code ROLE}, read again on
 * each new connection, each second, and after a {@code WAIT} that fell short; never less than
 * one, so a master left without replicas refuses to acknowledge.
 */
final class LettuceAcknowledgedWrites implements AutoCloseable {

    /** What the client waits beyond the server's own timeout before giving up on the reply. */
    private static final long REPLY_GRACE_MILLIS = 1_000;

    /** How long a count of the master's replicas is trusted. */
    private static final long REPLICAS_FRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RedisClient client;

    private final RedisReplicaAcks acks;

    private final AtomicLong epoch = new AtomicLong();

    private final RedisConnectionStateListener moves = new RedisConnectionStateListener() {

        @Override
        public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress address) {
            moved(connection);
        }

        @Override
        public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
            moved(connection);
        }
    };

    private volatile @Nullable StatefulRedisConnection<String, String> connection;

    /** The replica count "every replica" stands for, and the epoch and time it was read at. */
    private volatile @Nullable Replicas replicas;

    private LettuceAcknowledgedWrites(RedisClient client, RedisReplicaAcks acks) {
        this.client = client;
        this.acks = acks;
        client.addListener(moves);
    }

    /**
     * The acknowledged writes of a store on {@code factory}.
     *
     * @param factory the application's connection factory
     * @param acks how many replicas, and how long
     * @return the writes
     * @throws IdempotencyStoreException when the factory is not Lettuce on a standalone or Sentinel master
     */
    static LettuceAcknowledgedWrites on(RedisConnectionFactory factory, RedisReplicaAcks acks) {
        if (factory instanceof LettuceConnectionFactory lettuce
                && lettuce.getRequiredNativeClient() instanceof RedisClient client) {
            return new LettuceAcknowledgedWrites(client, acks);
        }
        AbstractRedisClient other = factory instanceof LettuceConnectionFactory lettuce
                ? lettuce.getRequiredNativeClient() : null;
        throw new IdempotencyStoreException("Redis replica acknowledgement needs Lettuce on a standalone or Sentinel "
                + "master; this connection factory is " + factory.getClass().getName()
                + (other != null ? " with a " + other.getClass().getSimpleName() : "")
                + ". Set resilience.idempotent.redis.replica-acks to 0, or use the JDBC store where a failover "
                + "must never duplicate.", null);
    }

    private void moved(RedisChannelHandler<?, ?> handler) {
        if (handler == connection) {
            epoch.incrementAndGet();
        }
    }

    /**
     * Runs {@code script} and then {@code WAIT} on this connection.
     *
     * @param script the script
     * @param key its one key
     * @param args its arguments
     * @param <T> the script's result type ({@code String} or {@code Long})
     * @return its answer and whether enough replicas acknowledged it
     */
    <T> ReplicaAcknowledgement<T> write(RedisScript<T> script, String key, String... args) {
        StatefulRedisConnection<String, String> open = connection();
        long before = epoch.get();
        int required = required(open, before);
        RedisAsyncCommands<String, String> commands = open.async();
        ScriptOutputType output = script.getResultType() == Long.class ? ScriptOutputType.INTEGER
                : ScriptOutputType.VALUE;
        String[] keys = {key};
        long timeout = acks.timeout().toMillis();
        RedisFuture<T> answer = commands.evalsha(script.getSha1(), output, keys, args);
        RedisFuture<Long> acknowledged = commands.waitForReplication(required, timeout);
        T result;
        try {
            result = await(answer, "the script");
        } catch (IdempotencyStoreException ex) {
            if (!(ex.getCause() instanceof RedisNoScriptException)) {
                throw ex;
            }
            // the server lost its scripts (a restart, SCRIPT FLUSH, a promoted replica): send the body
            await(acknowledged, "WAIT");
            answer = commands.eval(script.getScriptAsString(), output, keys, args);
            acknowledged = commands.waitForReplication(required, timeout);
            result = await(answer, "the script");
        }
        Long count = await(acknowledged, "WAIT");
        long replicasAcknowledged = count == null ? 0 : count;
        if (epoch.get() != before) {
            // reconnected in between: the WAIT may have reached another server than the write
            return new ReplicaAcknowledgement<>(result, 0, required, "the connection was re-established between the write "
                    + "and WAIT");
        }
        if (replicasAcknowledged < required) {
            // a replica may have left: count them again before the next write
            replicas = null;
        }
        return new ReplicaAcknowledgement<>(result, replicasAcknowledged, required, null);
    }

    private StatefulRedisConnection<String, String> connection() {
        StatefulRedisConnection<String, String> open = connection;
        if (open != null && open.isOpen()) {
            return open;
        }
        synchronized (this) {
            StatefulRedisConnection<String, String> current = connection;
            if (current == null || !current.isOpen()) {
                try {
                    current = client.connect(StringCodec.UTF8);
                } catch (RuntimeException ex) {
                    throw new IdempotencyStoreException("Redis unavailable for an acknowledged write: "
                            + ex.getMessage(), ex);
                }
                connection = current;
                // whatever the listener saw while connecting: this connection's epoch starts here
                epoch.incrementAndGet();
            }
            return current;
        }
    }

    private int required(StatefulRedisConnection<String, String> open, long currentEpoch) {
        if (acks.replicas() != RedisReplicaAcks.EVERY_REPLICA) {
            return acks.replicas();
        }
        Replicas known = replicas;
        if (known != null && known.epoch == currentEpoch && System.nanoTime() - known.readAt < REPLICAS_FRESH_NANOS) {
            return known.count;
        }
        List<Object> role = await(open.async().role(), "ROLE");
        int count = role != null && role.size() > 2 && role.get(2) instanceof List<?> listed ? listed.size() : 0;
        Replicas read = new Replicas(Math.max(1, count), currentEpoch, System.nanoTime());
        replicas = read;
        return read.count;
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
            throw new IdempotencyStoreException("Redis " + what + " failed: " + cause.getMessage(), cause);
        } catch (TimeoutException ex) {
            reply.cancel(false);
            throw new IdempotencyStoreException("Redis gave no answer to " + what + " within " + timeout + " ms", ex);
        }
    }

    @Override
    public void close() {
        client.removeListener(moves);
        StatefulRedisConnection<String, String> open = connection;
        if (open != null) {
            open.close();
        }
    }

    /** How many replicas "every replica" stood for on a connection's epoch, read at a time. */
    private record Replicas(int count, long epoch, long readAt) {
    }
}
