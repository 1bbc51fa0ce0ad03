package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisReplicaAcks;
import io.github.resiliencestarter.testsupport.DisposableRedisSentinel;
import io.github.resiliencestarter.testsupport.FailoverRehearsal;
import io.github.resiliencestarter.testsupport.Opened;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Claims through a Redis Sentinel failover: one master, two replicas, three sentinels of the test's
 * own, each write acknowledged by every replica (the default through Sentinel). Keys are claimed one after another while the sentinels promote the replica (the graceful
 * {@code SENTINEL FAILOVER}: the old master keeps taking writes until it is demoted and its data is
 * replaced by the new master's); once the old master is a replica, every key is sent again. Every
 * execution inserts a row into a table without a unique key: a key whose claim or completion was
 * written only to the old master executes a second time.
 */
@Tag("failover")
class RedisSentinelFailoverTest {

    /** Two, as a team runs it so that a promoted master still has a replica. */
    private static final int REPLICAS = 2;

    private final Opened opened = new Opened();

    @AfterEach
    void closeAll() throws Exception {
        // the last opened first: the store, its client, then the servers, each even when another fails
        opened.close();
    }

    @Test
    void I3_control_withoutReplicaAcks_aGracefulFailoverMakesKeysExecuteTwice() throws Exception {
        // shows the setup reproduces the loss the acknowledgement guards against
        FailoverRehearsal.Result run = runThrough(RedisReplicaAcks.NONE,
                DisposableRedisSentinel::failoverAndAwaitDemotion);

        assertThat(run.executedTwice()).as("keys executed twice without acknowledgement: " + run).isPositive();
    }

    @Test
    void I3_withReplicaAcks_noKeyExecutesTwiceThroughAGracefulFailover() throws Exception {
        assertNoKeyExecutesTwice(DisposableRedisSentinel::failoverAndAwaitDemotion);
    }

    @Test
    void I3_withReplicaAcks_noKeyExecutesTwiceWhenTheMasterFreezesFor5s() throws Exception {
        assertNoKeyExecutesTwice(sentinel -> {
            int former = sentinel.freezeMaster(Duration.ofSeconds(5));
            return sentinel.awaitMasterOtherThan(former, Duration.ofSeconds(30))
                    && sentinel.awaitRole(former, "slave", Duration.ofSeconds(60));
        });
    }

    @Test
    void I3_withReplicaAcks_noKeyExecutesTwiceWhenTheMasterIsKilled() throws Exception {
        assertNoKeyExecutesTwice(sentinel -> {
            int former = sentinel.killMaster();
            // until a replica is back, a master with none refuses every write: the price of the acknowledgement
            return sentinel.awaitMasterOtherThan(former, Duration.ofSeconds(30))
                    && sentinel.restartAsReplica(former);
        });
    }

    private void assertNoKeyExecutesTwice(Fault fault) throws Exception {
        runThrough(RedisReplicaAcks.everyReplica(Duration.ofMillis(250)), fault).assertEachKeyExecutedOnce();
    }

    /** What happens to the master; true once the setup has settled on a new one. */
    @FunctionalInterface
    private interface Fault {

        boolean strike(DisposableRedisSentinel sentinel) throws Exception;
    }

    private FailoverRehearsal.Result runThrough(RedisReplicaAcks acks, Fault fault) throws Exception {
        DisposableRedisSentinel sentinel = DisposableRedisSentinel.start(REPLICAS);
        opened.add(sentinel);
        LettuceConnectionFactory factory = sentinel.connectionFactory(Duration.ofSeconds(1));
        opened.add(factory::destroy);
        RedisIdempotencyStore store = new RedisIdempotencyStore(factory, acks);
        opened.add(store);
        FailoverRehearsal.Result run = FailoverRehearsal.run(store, () -> fault.strike(sentinel));
        System.out.printf("[%s, %d replicas, acknowledged by %s] %s%n", getClass().getSimpleName(), REPLICAS,
                acks.required() ? acks.describe() : "none", run);
        return run;
    }
}
