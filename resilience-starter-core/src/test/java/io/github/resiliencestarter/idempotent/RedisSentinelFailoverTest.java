package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisReplicaAcks;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.testsupport.DisposableRedisSentinel;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

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

    private static final String EFFECTS = "sentinel_failover_effects";

    private static final int KEYS = 120;

    /** Two, as a team runs it so that a promoted master still has a replica. */
    private static final int REPLICAS = 2;

    private static JdbcTemplate effects;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void effectsTable() {
        effects = new JdbcTemplate(StoreFixtures.mysqlDataSource());
        // no unique key: a second execution shows as a second row
        effects.execute("CREATE TABLE IF NOT EXISTS " + EFFECTS + " (idempotency_key VARCHAR(200) NOT NULL)");
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    @Test
    void I3_control_withoutReplicaAcks_aGracefulFailoverMakesKeysExecuteTwice() throws Exception {
        // shows the setup reproduces the loss the acknowledgement guards against
        FailoverRun run = runThrough(RedisReplicaAcks.NONE, DisposableRedisSentinel::failoverAndAwaitDemotion);

        assertThat(run.executedTwice).as("keys executed twice without acknowledgement: " + run).isPositive();
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
        FailoverRun run = runThrough(RedisReplicaAcks.everyReplica(Duration.ofMillis(250)), fault);

        assertThat(run.executedTwice).as("keys executed twice: " + run).isZero();
        assertThat(run.executedOnce).as("every key executed in the end: " + run).isEqualTo(KEYS);
    }

    /** What happens to the master; true once the setup has settled on a new one. */
    @FunctionalInterface
    private interface Fault {

        boolean strike(DisposableRedisSentinel sentinel) throws Exception;
    }

    private FailoverRun runThrough(RedisReplicaAcks acks, Fault fault) throws Exception {
        DisposableRedisSentinel sentinel = DisposableRedisSentinel.start(REPLICAS);
        opened.add(sentinel);
        LettuceConnectionFactory factory = sentinel.connectionFactory(Duration.ofSeconds(1));
        opened.add(factory::destroy);
        IdempotentExecutor node = IdempotentExecutor.builder(new RedisIdempotencyStore(factory, acks),
                new Fastjson2ResponseCodec()).build();
        IdempotencyConfig config = IdempotencyConfig.custom().lease(Duration.ofSeconds(2)).build();
        String prefix = "idem:failover:" + UUID.randomUUID() + ":";
        Map<String, String> firstAnswers = new ConcurrentHashMap<>();

        ExecutorService callers = Executors.newFixedThreadPool(4);
        ExecutorService striker = Executors.newSingleThreadExecutor();
        List<Future<?>> first = new ArrayList<>();
        Future<Boolean> settled = null;
        try {
            for (int i = 0; i < KEYS; i++) {
                String key = prefix + i;
                first.add(callers.submit(() -> firstAnswers.put(key, attempt(node, key, config))));
                Thread.sleep(40);
                if (i == KEYS / 8) {
                    // the fault lands while keys keep arriving
                    settled = striker.submit(() -> fault.strike(sentinel));
                }
            }
            for (Future<?> call : first) {
                call.get(60, TimeUnit.SECONDS);
            }
            assertThat(settled.get(90, TimeUnit.SECONDS)).as("the sentinels settled on a new master").isTrue();
        } finally {
            callers.shutdownNow();
            striker.shutdownNow();
        }

        // every key again, on the settled setup: a key whose writes were lost executes a second time
        Map<String, String> secondAnswers = new ConcurrentHashMap<>();
        for (int i = 0; i < KEYS; i++) {
            String key = prefix + i;
            secondAnswers.put(key, attempt(node, key, config));
        }
        FailoverRun run = new FailoverRun();
        for (int i = 0; i < KEYS; i++) {
            String key = prefix + i;
            int count = effects.queryForObject("SELECT COUNT(*) FROM " + EFFECTS + " WHERE idempotency_key = ?",
                    Integer.class, key);
            if (count == 1) {
                run.executedOnce++;
            } else if (count > 1) {
                run.executedTwice++;
                run.twice.add(i + " (first " + firstAnswers.get(key) + ", then " + secondAnswers.get(key) + ")");
            }
            run.count(firstAnswers.get(key), run.firstAnswers);
            run.count(secondAnswers.get(key), run.secondAnswers);
        }
        System.out.printf("[%s, %d replicas, acknowledged by %s] %s%n", getClass().getSimpleName(), REPLICAS,
                acks.required() ? acks.describe() : "none", run);
        return run;
    }

    /** One caller's call: what it was answered. */
    private static String attempt(IdempotentExecutor node, String key, IdempotencyConfig config) {
        try {
            IdempotentResult<String> result = node.execute(
                    new IdempotentCall("Orders.create", key, "fp", String.class, config), () -> {
                        effects.update("INSERT INTO " + EFFECTS + " (idempotency_key) VALUES (?)", key);
                        return "done";
                    });
            return result.replayed() ? "replayed" : "executed";
        } catch (Throwable refused) {
            return refused.getClass().getSimpleName();
        }
    }

    private static final class FailoverRun {

        int executedOnce;

        int executedTwice;

        /** The keys executed twice, by number in the order sent, with what their two calls were answered. */
        final List<String> twice = new ArrayList<>();

        final Map<String, Integer> firstAnswers = new ConcurrentHashMap<>();

        final Map<String, Integer> secondAnswers = new ConcurrentHashMap<>();

        void count(String answer, Map<String, Integer> answers) {
            answers.merge(String.valueOf(answer), 1, Integer::sum);
        }

        @Override
        public String toString() {
            return "executed once " + executedOnce + ", twice " + executedTwice + "; first pass " + firstAnswers
                    + "; second pass " + secondAnswers + (twice.isEmpty() ? "" : "; executed twice (the first 10): "
                    + twice.subList(0, Math.min(10, twice.size())));
        }
    }
}
