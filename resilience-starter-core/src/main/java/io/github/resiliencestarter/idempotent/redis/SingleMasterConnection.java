package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * The one master of a standalone or Sentinel setup: a connection of the store's own, opened from the
 * application's client (its master or sentinels, credentials and TLS), so a {@code WAIT} never
 * holds up the application's shared connection. Through Sentinel, Lettuce follows the master after
 * a failover when it reconnects.
 */
final class SingleMasterConnection implements MasterConnections {

    private final RedisClient client;

    private final ConnectionEpochs epochs;

    private volatile @Nullable StatefulRedisConnection<String, String> connection;

    SingleMasterConnection(RedisClient client) {
        this.client = client;
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
    public ConnectionEpochs epochs() {
        return epochs;
    }

    @Override
    public void redirected() {
        // one master holds every key: nothing to learn
    }

    @Override
    public void close() {
        epochs.close();
        StatefulRedisConnection<String, String> open = connection;
        if (open != null) {
            open.close();
        }
    }
}
