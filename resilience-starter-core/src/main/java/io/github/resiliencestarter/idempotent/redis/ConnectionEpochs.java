package io.github.resiliencestarter.idempotent.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.api.StatefulConnection;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How often each connection the store writes on has connected or disconnected: its epoch. Lettuce
 * re-sends what was unanswered when a connection comes back, so a {@code WAIT} sent before a
 * break may be answered by another server than the one that ran the write (a promoted replica, a
 * restarted master). A write counts as acknowledged only if its connection's epoch did not move
 * between the write and the answer to its {@code WAIT}.
 *
 * <p>The listener sits on the application's client, which also fires for the application's own
 * connections; those are not tracked and change nothing here.
 */
final class ConnectionEpochs implements AutoCloseable {

    private final AbstractRedisClient client;

    /**
     * Keyed by identity (Lettuce's connections do not override {@code equals}): the connection as
     * the store holds it, which is the channel handler the listener is told about.
     */
    private final Map<Object, AtomicLong> epochs = new ConcurrentHashMap<>();

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

    ConnectionEpochs(AbstractRedisClient client) {
        this.client = client;
        client.addListener(moves);
    }

    /**
     * Starts tracking a connection, if not tracked yet. Only what happens to it from now on moves
     * its epoch: a write reads the epoch after this.
     *
     * @param connection the connection
     */
    void track(StatefulConnection<?, ?> connection) {
        epochs.computeIfAbsent(connection, tracked -> new AtomicLong());
    }

    /**
     * Stops tracking a connection the store no longer writes on.
     *
     * @param connection the connection
     */
    void forget(StatefulConnection<?, ?> connection) {
        epochs.remove(connection);
    }

    /**
     * @param connection a tracked connection
     * @return its epoch now
     */
    long of(StatefulConnection<?, ?> connection) {
        AtomicLong epoch = epochs.get(connection);
        // an untracked connection has no history to trust: never equal to what a write saw before
        return epoch != null ? epoch.get() : System.nanoTime();
    }

    private void moved(RedisChannelHandler<?, ?> connection) {
        AtomicLong epoch = epochs.get(connection);
        if (epoch != null) {
            epoch.incrementAndGet();
        }
    }

    @Override
    public void close() {
        client.removeListener(moves);
        epochs.clear();
    }
}
