package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * The masters of a Redis Cluster: a cluster connection of the store's own, opened from the
 * application's client, and through it a connection to the master of each key's slot. The script
 * and its {@code WAIT} must reach that very master ({@code WAIT} has no key, so the cluster
 * connection alone would send it to some node). A {@code MOVED} answer (the slot has a new master
 * after a failover or a resharding) makes the client learn the topology again, and the refused
 * call goes on to the master the answer names.
 */
final class ClusterMasterConnections implements MasterConnections {

    private final RedisClusterClient client;

    private final ConnectionEpochs epochs;

    private volatile @Nullable StatefulRedisClusterConnection<String, String> cluster;

    ClusterMasterConnections(RedisClusterClient client) {
        this.client = client;
        this.epochs = new ConnectionEpochs(client);
    }

    @Override
    public StatefulRedisConnection<String, String> forKey(String key) {
        StatefulRedisClusterConnection<String, String> open = cluster();
        RedisClusterNode master = open.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
        if (master == null) {
            client.refreshPartitions();
            throw new IdempotencyStoreException("Redis Cluster: no master known for the slot of " + key
                    + "; the topology is read again", null);
        }
        StatefulRedisConnection<String, String> node;
        try {
            node = open.getConnection(master.getNodeId());
        } catch (RuntimeException ex) {
            throw new IdempotencyStoreException("Redis Cluster master " + master.getUri() + " unavailable for an "
                    + "acknowledged write: " + ex.getMessage(), ex);
        }
        epochs.track(node);
        return node;
    }

    private StatefulRedisClusterConnection<String, String> cluster() {
        StatefulRedisClusterConnection<String, String> open = cluster;
        if (open != null && open.isOpen()) {
            return open;
        }
        synchronized (this) {
            StatefulRedisClusterConnection<String, String> current = cluster;
            if (current == null || !current.isOpen()) {
                try {
                    current = client.connect(StringCodec.UTF8);
                } catch (RuntimeException ex) {
                    throw new IdempotencyStoreException("Redis Cluster unavailable for an acknowledged write: "
                            + ex.getMessage(), ex);
                }
                cluster = current;
            }
            return current;
        }
    }

    @Override
    public ConnectionEpochs epochs() {
        return epochs;
    }

    @Override
    public int knownReplicas(StatefulRedisConnection<String, String> connection) {
        // no Sentinel: the master's own list is all the store goes by on a Cluster
        return 0;
    }

    @Override
    public void redirected() {
        client.refreshPartitions();
    }

    @Override
    public StatefulRedisConnection<String, String> redirectedTo(RedirectedException redirect) {
        // the server that refused knows the slot's master now, while the topology just read again may not yet:
        // the nodes learn a failover from each other, and the client takes the view most of them hold
        StatefulRedisConnection<String, String> node;
        try {
            StatefulRedisClusterConnection<String, String> open = cluster();
            // by node id where the topology knows the address (as a replica, before the failover): the same kind of
            // connection forKey gives, one per server
            RedisClusterNode named = open.getPartitions().getPartition(redirect.host(), redirect.port());
            node = named != null ? open.getConnection(named.getNodeId())
                    : open.getConnection(redirect.host(), redirect.port());
        } catch (RuntimeException ex) {
            redirect.addSuppressed(ex);
            throw redirect;
        }
        epochs.track(node);
        return node;
    }

    @Override
    public void close() {
        epochs.close();
        StatefulRedisClusterConnection<String, String> open = cluster;
        if (open != null) {
            open.close();
        }
    }
}
