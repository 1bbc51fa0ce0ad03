package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.jspecify.annotations.Nullable;

/**
 * The one master of a standalone or Sentinel setup: a connection of the store's own, opened from the
 * application's client (its master or sentinels, credentials and TLS), so a {@code WAIT} never
 * holds up the application's shared connection. Through Sentinel, Lettuce follows the master after
 * a failover when it reconnects, and the sentinels tell how many replicas the setup has.
 */
final class SingleMasterConnection implements MasterConnections {

    private final RedisClient client;

    private final ConnectionEpochs epochs;

    /** The name the sentinels know the master by; {@code null} without Sentinel. */
    private final @Nullable String sentinelMaster;

    private volatile @Nullable StatefulRedisConnection<String, String> connection;

    private volatile @Nullable StatefulRedisSentinelConnection<String, String> sentinel;

    /** What the sentinels last answered: the answer when none answers now. */
    private volatile int lastKnown = -1;

    /**
     * @param client the application's client
     * @param sentinelMaster the name the sentinels know the master by, or {@code null} without Sentinel
     */
    SingleMasterConnection(RedisClient client, @Nullable String sentinelMaster) {
        this.client = client;
        this.sentinelMaster = sentinelMaster;
        this.epochs = new ConnectionEpochs(client);
    }

    @Override
    public StatefulRedisConnection<String, String> forKey(String key) {
        StatefulRedisConnection<String, String> open = connection;
        if (open != null && open.isOpen()) {
            return open;
        }
        synchronized (this) {
            StatefulRedisConnection<String, String> stale = connection;
            if (stale != null && stale.isOpen()) {
                return stale;
            }
            StatefulRedisConnection<String, String> fresh;
            try {
                fresh = client.connect(StringCodec.UTF8);
            } catch (RuntimeException ex) {
                throw new IdempotencyStoreException("Redis unavailable for an acknowledged write: " + ex.getMessage(),
                        ex);
            }
            if (stale != null) {
                epochs.forget(stale);
            }
            epochs.track(fresh);
            connection = fresh;
            return fresh;
        }
    }

    @Override
    public int knownReplicas(StatefulRedisConnection<String, String> connection) {
        String master = sentinelMaster;
        if (master == null) {
            return 0;
        }
        try {
            int known = sentinel().sync().replicas(master).size();
            lastKnown = known;
            return known;
        } catch (RuntimeException ex) {
            StatefulRedisSentinelConnection<String, String> stale = sentinel;
            if (stale != null) {
                sentinel = null;
                stale.close();
            }
            if (lastKnown >= 0) {
                // the sentinels' list changes when an operator resets it, not with a failover: the last answer stands
                return lastKnown;
            }
            throw new IdempotencyStoreException("Redis Sentinel did not say how many replicas " + master + " has: "
                    + ex.getMessage(), ex);
        }
    }

    /** A connection to a sentinel (the client's own list, credentials and TLS), opened once. */
    private synchronized StatefulRedisSentinelConnection<String, String> sentinel() {
        StatefulRedisSentinelConnection<String, String> open = sentinel;
        if (open == null || !open.isOpen()) {
            open = client.connectSentinel();
            sentinel = open;
        }
        return open;
    }

    @Override
    public ConnectionEpochs epochs() {
        return epochs;
    }

    @Override
    public void redirected() {
        // one master holds every key: nothing to learn
    }

    @Override
    public StatefulRedisConnection<String, String> redirectedTo(RedirectedException redirect) {
        // the sentinels, not a demoted server's own view, say which server is the master: the call is refused,
        // as before a redirect was followed anywhere
        throw redirect;
    }

    @Override
    public void close() {
        epochs.close();
        StatefulRedisSentinelConnection<String, String> asked = sentinel;
        if (asked != null) {
            asked.close();
        }
        StatefulRedisConnection<String, String> open = connection;
        if (open != null) {
            open.close();
        }
    }
}
