package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisReplicaAcks;
import io.github.resiliencestarter.testsupport.DisposableRedis;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.FaultProxy;
import io.github.resiliencestarter.testsupport.Opened;
import io.github.resiliencestarter.testsupport.RedisCommandStats;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Replica acknowledgement on real Redis servers (rule I-3, issue 45 item 5): a {@code WAIT} that
 * Lettuce re-sends after reconnecting to another server never acknowledges a write that server
 * never had, and a {@code WAIT} never holds up the application's own commands.
 */
@Tag("failover")
class RedisReplicaAcknowledgementTest {

    private final Opened opened = new Opened();

    @AfterEach
    void closeAll() throws Exception {
        // the last opened first: the store, its client, then the servers, each even when another fails
        opened.close();
    }

    private DisposableRedis redis() throws Exception {
        DisposableRedis server = DisposableRedis.start();
        opened.add(server);
        return server;
    }

    private LettuceConnectionFactory factoryOn(int port) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1",
                port), LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
        factory.afterPropertiesSet();
        factory.start();
        opened.add(factory::destroy);
        return factory;
    }

    private static void linkReplica(DisposableRedis replica, DisposableRedis master) {
        replica.template().execute((RedisCallback<Object>) connection -> {
            connection.serverCommands().replicaOf("127.0.0.1", master.port());
            return null;
        });
        Eventually.waitUntil("the replica linked to its master", () -> {
            Properties info = replica.template().execute((RedisCallback<Properties>) connection ->
                    connection.serverCommands().info("replication"));
            return info != null && "up".equals(info.getProperty("master_link_status"));
        });
    }

    private static boolean blockedInWait(StringRedisTemplate server) {
        Boolean waiting = server.execute((RedisCallback<Boolean>) connection -> connection.serverCommands()
                .getClientList().stream().anyMatch(client -> "wait".equals(client.getLastCommand())));
        return Boolean.TRUE.equals(waiting);
    }

    /**
     * The claim is written to a master without replicas, whose {@code WAIT} blocks; the connection
     * then closes, and the client's address now leads to another master that has a replica (a
     * failover, as a client that reconnects to the same address sees it). Lettuce re-sends the
     * unanswered {@code WAIT} there, where it is answered at once: a write on a new connection has
     * nothing to wait for. Taken as an acknowledgement, the claim would run while the server the
     * client now talks to has no record of it, and a duplicate would run again.
     */
    @Test
    void I3_aWaitReSentOnAnotherServerAfterAReconnectDoesNotAcknowledgeTheWrite() throws Exception {
        DisposableRedis lonely = redis();
        DisposableRedis promoted = redis();
        DisposableRedis replica = redis();
        linkReplica(replica, promoted);
        FaultProxy network = FaultProxy.to("127.0.0.1", lonely.port());
        opened.add(network);
        RedisIdempotencyStore store = new RedisIdempotencyStore(factoryOn(network.port()),
                new RedisReplicaAcks(1, Duration.ofSeconds(3)));
        opened.add(store);
        String key = "idem:acks:" + UUID.randomUUID();

        CompletableFuture<ClaimResult> claim = CompletableFuture.supplyAsync(() -> store.claim(
                new Claim(key, "Orders.create", "fp", "first", 30_000, 60_000)));
        Eventually.waitUntil("the claim's WAIT blocked on the master without replicas",
                () -> claim.isDone() || blockedInWait(lonely.template()));
        assertThat(claim).isNotDone();
        network.retarget(promoted.port());
        // closed, not reset: Lettuce keeps what was unanswered and sends it again once reconnected
        network.closeAll();

        assertThat(claim).failsWithin(20, TimeUnit.SECONDS).withThrowableThat()
                .havingCause().isInstanceOf(IdempotencyStoreException.class)
                .withMessageContaining("re-established between the write and WAIT");
        assertThat(promoted.template().hasKey(key)).as("the server now answering never had the claim").isFalse();
        // a duplicate on that server claims the key: the first claim must not have counted
        assertThat(store.claim(new Claim(key, "Orders.create", "fp", "second", 30_000, 60_000)).owned()).isTrue();
    }

    /**
     * A {@code WAIT} that blocks (no replica answers) is sent on the acknowledged writes' own
     * connection: the application's commands on its shared connection go on meanwhile.
     */
    @Test
    void I3_aBlockedWaitDoesNotHoldUpTheApplicationsSharedConnection() throws Exception {
        DisposableRedis lonely = redis();
        LettuceConnectionFactory factory = factoryOn(lonely.port());
        RedisIdempotencyStore store = new RedisIdempotencyStore(factory,
                new RedisReplicaAcks(1, Duration.ofSeconds(3)));
        opened.add(store);
        StringRedisTemplate application = new StringRedisTemplate(factory);
        application.afterPropertiesSet();
        application.opsForValue().set("app:warm", "1");

        CompletableFuture<ClaimResult> claim = CompletableFuture.supplyAsync(() -> store.claim(
                new Claim("idem:acks:" + UUID.randomUUID(), "Orders.create", "fp", "first", 30_000, 60_000)));
        Eventually.waitUntil("the claim's WAIT blocked",
                () -> claim.isDone() || blockedInWait(lonely.template()));
        assertThat(claim).isNotDone();
        long start = System.nanoTime();
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> application.opsForValue().get("app:warm"));

        assertThat(read).succeedsWithin(2, TimeUnit.SECONDS).isEqualTo("1");
        assertThat(claim).as("answered after %d ms", (System.nanoTime() - start) / 1_000_000).isNotDone();
        assertThat(claim).failsWithin(20, TimeUnit.SECONDS).withThrowableThat()
                .havingRootCause().isInstanceOf(IdempotencyStoreException.class);
    }

    /**
     * With replicas to acknowledge, a replay of an operation whose calls are mostly replays is a
     * read on the store's own connection to the master: no script and no {@code WAIT}. A master
     * that stops answering fails that read in one bounded wait, as the script would have failed:
     * not a wait for the read and then another for the script (on Boot 4, a failover rehearsal lost
     * keys to that double wait while the read went through the application's connection).
     */
    @Test
    void I3_withReplicaAcksAReplayIsAReadWithoutScriptAndAStalledMasterFailsItInOneWait() throws Exception {
        DisposableRedis master = redis();
        DisposableRedis replica = redis();
        linkReplica(replica, master);
        FaultProxy network = FaultProxy.to("127.0.0.1", master.port());
        opened.add(network);
        Duration ackTimeout = Duration.ofSeconds(2);
        RedisIdempotencyStore store = new RedisIdempotencyStore(factoryOn(network.port()),
                new RedisReplicaAcks(1, ackTimeout));
        opened.add(store);
        String key = "idem:acks:" + UUID.randomUUID();
        StoreFixtures.mostlyReplayed(store, key, "Orders.replayed");
        long scripts = RedisCommandStats.calls(master.template(), "evalsha");
        long waits = RedisCommandStats.calls(master.template(), "wait");
        long reads = RedisCommandStats.calls(master.template(), "get");

        int replays = 50;
        for (int i = 0; i < replays; i++) {
            ClaimResult replay = store.claim(new Claim(key, "Orders.replayed", "fp", "replay-" + i, 30_000, 60_000));
            assertThat(replay.existing()).isNotNull();
            assertThat(replay.existing().response().payload()).isEqualTo("\"done\"");
        }
        assertThat(RedisCommandStats.calls(master.template(), "evalsha") - scripts).isZero();
        assertThat(RedisCommandStats.calls(master.template(), "wait") - waits).isZero();
        assertThat(RedisCommandStats.calls(master.template(), "get") - reads).isGreaterThanOrEqualTo(replays);

        network.blackHole();
        long start = System.nanoTime();
        assertThatThrownBy(() -> store.claim(new Claim(key, "Orders.replayed", "fp", "stalled", 30_000, 60_000)))
                .isInstanceOf(IdempotencyStoreException.class);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        // one wait is the acknowledgement timeout plus the client's grace of a second (3 s); two would be 6 s
        assertThat(tookMillis).isLessThan(5_000);
    }
}
