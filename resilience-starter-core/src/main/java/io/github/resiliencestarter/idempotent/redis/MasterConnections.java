package io.github.resiliencestarter.idempotent.redis;

import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Where the store's acknowledged write of a key goes: a connection of the store's own to the master
 * that holds the key, on which the script and its {@code WAIT} both run. One master for a standalone
 * or Sentinel setup; on a Cluster, the master of the key's slot.
 */
interface MasterConnections extends AutoCloseable {

    /**
     * The connection to the key's master, opened if needed and tracked by {@code epochs}.
     *
     * @param key the record's key
     * @return an open connection
     */
    StatefulRedisConnection<String, String> forKey(String key);

    /** @return the connections' epochs */
    ConnectionEpochs epochs();

    /**
     * The replicas the deployment knows the key's master set to have, down ones included: through
     * Sentinel, every replica the sentinels know of; 0 where only the master itself can tell.
     *
     * @param connection a connection {@link #forKey(String)} gave
     * @return the replicas known
     */
    int knownReplicas(StatefulRedisConnection<String, String> connection);

    /**
     * The master answered that it does not hold the key's slot ({@code MOVED}), or reported itself
     * a replica ({@code ROLE}): the topology changed, so learn it again before the next write.
     */
    void redirected();

    /**
     * A connection to the master a server named for the key ({@link RedirectedException}), so that
     * the call it refused can be sent there once.
     *
     * @param redirect the refusal and the address it named
     * @return an open connection to that master, tracked by {@link #epochs()}
     * @throws RedirectedException the refusal itself where this topology does not follow a
     *         server's redirect, or when that master cannot be reached
     */
    StatefulRedisConnection<String, String> redirectedTo(RedirectedException redirect);

    @Override
    void close();
}
