package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisReplicaAcks;
import io.github.resiliencestarter.testsupport.DisposableRedisCluster;
import io.github.resiliencestarter.testsupport.FailoverRehearsal;
import io.github.resiliencestarter.testsupport.Opened;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Claims through failovers of a Redis Cluster: three masters with a replica each, of the test's
 * own; the store's scripts and their {@code WAIT} sent to the master of each key's slot, each write
 * acknowledged by every replica of that master. One master is failed over while keys keep
 * arriving (about a third of them are its), then every key is sent again; every execution inserts
 * a row into a table without a unique key. Without acknowledgement this setup lost no key in
 * these faults (a cluster's own failover waits for the replica, and a frozen master acknowledges
 * nothing): what the routing of {@code WAIT} is proved on is the frozen replica of one master.
 */
@Tag("failover")
class RedisClusterFailoverTest {

    private final Opened opened = new Opened();

    @AfterEach
    void closeAll() throws Exception {
        // the last opened first: the store, its client, then the servers, each even when another fails
        opened.close();
    }

    @Test
    void I3_eachWriteWaitsForTheReplicasOfTheMasterOfItsKey() throws Exception {
        // one master's replica frozen: the keys of that master's slots are refused, every other key claimed.
        // WAIT sent to any other node than the key's master would refuse the wrong keys, or none
        DisposableRedisCluster cluster = DisposableRedisCluster.start(1);
        opened.add(cluster);
        LettuceConnectionFactory factory = cluster.connectionFactory(Duration.ofSeconds(1));
        opened.add(factory::destroy);
        RedisIdempotencyStore store = new RedisIdempotencyStore(factory,
                RedisReplicaAcks.everyReplica(Duration.ofMillis(250)));
        opened.add(store);
        RedisClusterClient client = (RedisClusterClient) factory.getRequiredNativeClient();
        int master = cluster.masters().get(0);
        int replica = cluster.replicaOf(master);
        String prefix = "idem:routing:" + UUID.randomUUID() + ":";

        Map<Boolean, List<String>> refusedByMaster = new HashMap<>(Map.of(true, new ArrayList<>(), false,
                new ArrayList<>()));
        Map<Boolean, Integer> keysByMaster = new HashMap<>(Map.of(true, 0, false, 0));
        cluster.freeze(replica, Duration.ofSeconds(4), () -> {
            for (int i = 0; i < 30; i++) {
                String key = prefix + i;
                boolean frozenReplicasMaster = client.getPartitions().getMasterBySlot(SlotHash.getSlot(key)).getUri()
                        .getPort() == master;
                keysByMaster.merge(frozenReplicasMaster, 1, Integer::sum);
                try {
                    store.claim(new Claim(key, "Orders.create", "fp", "owner-" + i, 5_000, 60_000));
                } catch (IdempotencyStoreException refused) {
                    refusedByMaster.get(frozenReplicasMaster).add(key + ": " + refused.getMessage());
                }
            }
        });

        assertThat(keysByMaster.get(true)).as("keys on the master whose replica froze").isPositive();
        assertThat(refusedByMaster.get(true)).as("refused on the master whose replica froze")
                .hasSize(keysByMaster.get(true)).allMatch(refusal -> refusal.contains("acknowledged by 0 of 1"));
        assertThat(refusedByMaster.get(false)).as("refused on the other masters").isEmpty();
    }

    @Test
    void I3_theFirstCallsAfterAFailoverFollowTheFormerMastersRedirect() throws Exception {
        // each store routes a key by the topology its client read before the failover, so its first call to a moved
        // slot reaches the former master, which answers MOVED with the new master's address (or, to the script's
        // ROLE check, reports itself that master's replica). Neither ran anything, so the store sends the call on
        // to the new master instead of refusing it as unavailable (a failover rehearsal lost 2 keys of 120 to that
        // refusal). Two stores on clients of their own: the first call of one is a read, of the other a script
        DisposableRedisCluster cluster = DisposableRedisCluster.start(1);
        opened.add(cluster);
        RedisIdempotencyStore reading = storeWithClientOfItsOwn(cluster);
        RedisIdempotencyStore claiming = storeWithClientOfItsOwn(cluster);
        int master = cluster.masters().get(0);
        List<String> keys = keysOf(cluster, master, 4);
        // both stores' routes to that master, used before the failover; for one operation most claims find the
        // key there, so the store reads before it claims for it
        for (int i = 0; i < 20; i++) {
            reading.claim(new Claim(keys.get(0), "Orders.replayed", "fp", "owner-0", 60_000, 60_000));
        }
        assertThat(claiming.claim(new Claim(keys.get(1), "Orders.create", "fp", "owner-1", 60_000, 60_000))
                .outcome()).isEqualTo(ClaimResult.Outcome.CLAIMED);

        assertThat(cluster.failover(master)).as("the replica took the master's slots over").isTrue();

        assertThat(reading.claim(new Claim(keys.get(0), "Orders.replayed", "fp", "owner-again", 60_000, 60_000))
                .outcome()).as("first a GET on the route read before the failover, then the claim script")
                .isEqualTo(ClaimResult.Outcome.EXISTS);
        assertThat(claiming.claim(new Claim(keys.get(2), "Orders.create", "fp", "owner-2", 60_000, 60_000))
                .outcome()).as("the claim script on the route read before the failover")
                .isEqualTo(ClaimResult.Outcome.CLAIMED);
        assertThat(claiming.claim(new Claim(keys.get(1), "Orders.create", "fp", "owner-again", 60_000, 60_000))
                .outcome()).as("the record claimed before the failover, on the new master")
                .isEqualTo(ClaimResult.Outcome.EXISTS);
    }

    private RedisIdempotencyStore storeWithClientOfItsOwn(DisposableRedisCluster cluster) {
        LettuceConnectionFactory factory = cluster.connectionFactory(Duration.ofSeconds(1));
        opened.add(factory::destroy);
        RedisIdempotencyStore store = new RedisIdempotencyStore(factory,
                RedisReplicaAcks.everyReplica(Duration.ofSeconds(1)));
        opened.add(store);
        return store;
    }

    /** Keys whose slots the master on {@code port} holds, as a client of the cluster sees them now. */
    private List<String> keysOf(DisposableRedisCluster cluster, int port, int count) {
        LettuceConnectionFactory factory = cluster.connectionFactory(Duration.ofSeconds(1));
        try {
            RedisClusterClient client = (RedisClusterClient) factory.getRequiredNativeClient();
            String prefix = "idem:redirect:" + UUID.randomUUID() + ":";
            List<String> keys = new ArrayList<>();
            for (int i = 0; keys.size() < count; i++) {
                String key = prefix + i;
                if (client.getPartitions().getMasterBySlot(SlotHash.getSlot(key)).getUri().getPort() == port) {
                    keys.add(key);
                }
            }
            return keys;
        } finally {
            factory.destroy();
        }
    }

    @Test
    void I3_withReplicaAcks_noKeyExecutesTwiceThroughAManualClusterFailover() throws Exception {
        assertNoKeyExecutesTwice(cluster -> cluster.failover(cluster.masters().get(0)));
    }

    @Test
    void I3_withReplicaAcks_noKeyExecutesTwiceWhenAMasterFreezesFor5s() throws Exception {
        assertNoKeyExecutesTwice(cluster -> {
            int master = cluster.masters().get(0);
            int replica = cluster.replicaOf(master);
            cluster.freeze(master, Duration.ofSeconds(5), () -> { });
            return cluster.awaitRole(replica, "master", Duration.ofSeconds(30))
                    && cluster.awaitRole(master, "slave", Duration.ofSeconds(30))
                    && cluster.awaitSettled(Duration.ofSeconds(60));
        });
    }

    @Test
    void I3_withReplicaAcks_noKeyExecutesTwiceWhenAMasterIsKilled() throws Exception {
        assertNoKeyExecutesTwice(cluster -> {
            int master = cluster.masters().get(0);
            int replica = cluster.replicaOf(master);
            cluster.kill(master);
            // until it is back as a replica, the promoted master has none and refuses its slots' writes
            return cluster.awaitRole(replica, "master", Duration.ofSeconds(30)) && cluster.restart(master);
        });
    }

    private void assertNoKeyExecutesTwice(Fault fault) throws Exception {
        runThrough(RedisReplicaAcks.everyReplica(Duration.ofMillis(250)), fault).assertEachKeyExecutedOnce();
    }

    /** What happens to a master; true once the cluster has settled again. */
    @FunctionalInterface
    private interface Fault {

        boolean strike(DisposableRedisCluster cluster) throws Exception;
    }

    private FailoverRehearsal.Result runThrough(RedisReplicaAcks acks, Fault fault) throws Exception {
        DisposableRedisCluster cluster = DisposableRedisCluster.start(1);
        opened.add(cluster);
        LettuceConnectionFactory factory = cluster.connectionFactory(Duration.ofSeconds(1));
        opened.add(factory::destroy);
        RedisIdempotencyStore store = new RedisIdempotencyStore(factory, acks);
        opened.add(store);
        FailoverRehearsal.Result run = FailoverRehearsal.run(store, () -> fault.strike(cluster));
        System.out.printf("[%s, a replica per master, acknowledged by %s] %s%n", getClass().getSimpleName(),
                acks.required() ? acks.describe() : "none", run);
        return run;
    }
}
