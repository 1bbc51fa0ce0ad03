package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.FaultProxy;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutGuard;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Exactly once through faults between the application and its store: a {@link FaultProxy} sits
 * between one node and the real Redis or MariaDB, another node reaches the store directly, and
 * every execution inserts a row into a table without a unique key. Whatever the fault at the
 * completion, every key ends with exactly one effect, and the other node's duplicates end with the
 * first result.
 */
class SettlementThroughFaultsTest {

    private static final String EFFECTS = "settlement_fault_effects";

    /** Only a Redis completion carries the encoded result: the work returns "first". */
    private static final String COMPLETION = "\"first\"";

    private static JdbcTemplate effects;

    private final List<AutoCloseable> opened = new ArrayList<>();

    private final List<IdempotencyOutcome> outcomes = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void effectsTable() {
        effects = new JdbcTemplate(StoreFixtures.mysqlDataSource());
        // no unique key: a second execution shows as a second row
        effects.execute("CREATE TABLE IF NOT EXISTS " + EFFECTS + " (idempotency_key VARCHAR(200) NOT NULL,"
                + " result VARCHAR(200) NOT NULL)");
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    private int effectsOf(String key) {
        return effects.queryForObject("SELECT COUNT(*) FROM " + EFFECTS + " WHERE idempotency_key = ?",
                Integer.class, key);
    }

    private String execute(String key) {
        effects.update("INSERT INTO " + EFFECTS + " (idempotency_key, result) VALUES (?, ?)", key, "first");
        return "first";
    }

    private FaultProxy proxyTo(URI server) throws Exception {
        FaultProxy proxy = FaultProxy.to(server.getHost(), server.getPort());
        opened.add(proxy);
        return proxy;
    }

    private IdempotencyStore redisThrough(FaultProxy proxy, Duration commandTimeout) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", proxy.port()),
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
        factory.afterPropertiesSet();
        factory.start();
        opened.add(factory::destroy);
        return new RedisIdempotencyStore(factory);
    }

    private IdempotencyStore mariaDbThrough(FaultProxy proxy) {
        RealServers.Jdbc settings = RealServers.jdbc();
        URI server = URI.create(settings.url().substring("jdbc:".length()));
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(settings.url().replace(server.getHost() + ":" + server.getPort(),
                "127.0.0.1:" + proxy.port()));
        dataSource.setUsername(settings.user());
        dataSource.setPassword(settings.password());
        dataSource.setConnectionTimeout(500);
        dataSource.setValidationTimeout(250);
        dataSource.setMaximumPoolSize(4);
        dataSource.setInitializationFailTimeout(-1);
        opened.add(dataSource);
        return StoreFixtures.jdbcStore(dataSource);
    }

    private IdempotentExecutor executor(IdempotencyStore store) {
        return IdempotentExecutor.builder(store, new Fastjson2ResponseCodec())
                .observer((operation, outcome) -> outcomes.add(outcome)).build();
    }

    private static IdempotentCall call(String key, IdempotencyConfig config) {
        return new IdempotentCall("Orders.create", key, "fp", String.class, config);
    }

    /**
     * The other node's duplicates, each refused at once while the first is in progress, until one
     * replays; none may execute.
     */
    private void assertDuplicatesEndWithTheFirstResult(IdempotentExecutor otherNode, String key,
            IdempotencyConfig config, Duration within) throws Throwable {
        IdempotencyConfig reject = IdempotencyConfig.from(config).onInProgress(InProgressStrategy.REJECT).build();
        long until = System.nanoTime() + within.toNanos();
        while (true) {
            try {
                IdempotentResult<String> duplicate = otherNode.execute(call(key, reject),
                        () -> execute(key) + " again");
                assertThat(duplicate.replayed()).as("a duplicate executed").isTrue();
                assertThat(duplicate.value()).isEqualTo("first");
                return;
            } catch (IdempotencyInProgressException stillInProgress) {
                assertThat(System.nanoTime() - until).as("no replay within " + within).isNegative();
                Thread.sleep(100);
            }
        }
    }

    private static URI redisServer() {
        return URI.create(RealServers.redisUrl());
    }

    private static URI mariaDbServer() {
        return URI.create(RealServers.jdbc().url().substring("jdbc:".length()));
    }

    @Test
    void IP6_redisAwayFor3sAtTheCompletion_theKeyExecutesOnceAndTheOtherNodesDuplicatesReplay() throws Throwable {
        FaultProxy proxy = proxyTo(redisServer());
        assertOneEffectThroughA3sOutageAtTheCompletion(proxy, redisThrough(proxy, Duration.ofMillis(500)),
                StoreFixtures.redisStore(), COMPLETION);
    }

    @Test
    void IP6_redisResetOnceAtTheCompletion_theKeyExecutesOnceAndDuplicatesReplay() throws Throwable {
        FaultProxy proxy = proxyTo(redisServer());
        IdempotentExecutor node = executor(redisThrough(proxy, Duration.ofMillis(500)));
        IdempotentExecutor otherNode = executor(StoreFixtures.redisStore());
        String key = "idem:fault:" + UUID.randomUUID();
        IdempotencyConfig config = IdempotencyConfig.custom().lease(Duration.ofSeconds(1)).build();
        proxy.onClientSending(COMPLETION, FaultProxy.Fault.RESET, Duration.ZERO);

        assertThat(node.execute(call(key, config), () -> execute(key)).value()).isEqualTo("first");

        assertThat(proxy.triggered()).isEqualTo(1);
        assertDuplicatesEndWithTheFirstResult(otherNode, key, config, Duration.ofSeconds(10));
        Thread.sleep(config.lease().toMillis() + 500);
        assertDuplicatesEndWithTheFirstResult(otherNode, key, config, Duration.ofSeconds(1));
        assertThat(effectsOf(key)).isEqualTo(1);
    }

    @Test
    void IP6_redisLeaseRunsOutWhileTheStoreIsAway_theCompletionIsStillWrittenAndNothingRunsTwice() throws Throwable {
        FaultProxy proxy = proxyTo(redisServer());
        IdempotentExecutor node = executor(redisThrough(proxy, Duration.ofMillis(300)));
        IdempotentExecutor otherNode = executor(StoreFixtures.redisStore());
        String key = "idem:fault:" + UUID.randomUUID();
        // the store is away longer than the lease, and nobody claims meanwhile
        IdempotencyConfig config = IdempotencyConfig.custom().lease(Duration.ofMillis(800)).build();
        proxy.onClientSending(COMPLETION, FaultProxy.Fault.RESET, Duration.ofSeconds(2));

        assertThat(node.execute(call(key, config), () -> execute(key)).value()).isEqualTo("first");

        Eventually.waitUntil("the completion was written after the outage", () -> {
            IdempotencyRecord record = StoreFixtures.redisStore().find(key);
            return record != null && record.status() == IdempotencyStatus.COMPLETED;
        });
        assertDuplicatesEndWithTheFirstResult(otherNode, key, config, Duration.ofSeconds(1));
        assertThat(effectsOf(key)).isEqualTo(1);
    }

    /**
     * The store away for longer than the settle limit, not the lease: the settlement goes on past the
     * limit as an "executed, outcome unknown" record, written once the store is back; the key never
     * runs again (it did when the settlement gave up at the limit: the lease, no longer kept, lapsed,
     * and the next duplicate ran the key).
     */
    @Test
    void IP6_redisAwayForLongerThanTheSettleLimit_theKeyIsRecordedAsExecutedOnceItIsBackAndNeverRunsTwice()
            throws Throwable {
        FaultProxy proxy = proxyTo(redisServer());
        IdempotentExecutor node = executor(redisThrough(proxy, Duration.ofMillis(300)));
        IdempotentExecutor otherNode = executor(StoreFixtures.redisStore());
        String key = "idem:fault:" + UUID.randomUUID();
        IdempotencyConfig config = IdempotencyConfig.custom().lease(Duration.ofSeconds(4))
                .settleLimit(Duration.ofSeconds(1)).build();
        proxy.onClientSending(COMPLETION, FaultProxy.Fault.RESET, Duration.ofMillis(2_500));

        assertThat(node.execute(call(key, config), () -> execute(key)).value()).isEqualTo("first");

        Eventually.waitUntil("the key was recorded as executed once the store was back", () -> {
            IdempotencyRecord record = StoreFixtures.redisStore().find(key);
            return record != null && record.status() == IdempotencyStatus.COMPLETED;
        });
        assertThat(StoreFixtures.redisStore().find(key).response().type()).isEqualTo(StoredResponse.OUTCOME_UNKNOWN);
        // past any lease the owner took
        Thread.sleep(config.lease().toMillis() + 500);
        assertThatThrownBy(() -> otherNode.execute(call(key, config), () -> execute(key) + " again"))
                .isInstanceOf(IdempotentReplayException.class);
        assertThat(effectsOf(key)).isEqualTo(1);
    }

    @Test
    void IP6_aRedisRecordLostWhileTheWorkRan_isWrittenBackByTheCompletionAndNothingRunsTwice() throws Throwable {
        IdempotentExecutor node = executor(StoreFixtures.redisStore());
        String key = "idem:fault:" + UUID.randomUUID();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();

        assertThat(node.execute(call(key, config), () -> {
            String done = execute(key);
            // as an eviction under maxmemory, or a master failed over without the write, would
            StoreFixtures.redisTemplate().delete(key);
            return done;
        }).value()).isEqualTo("first");

        assertThat(outcomes).containsExactly(IdempotencyOutcome.EXECUTED);
        assertDuplicatesEndWithTheFirstResult(node, key, config, Duration.ofSeconds(1));
        assertThat(effectsOf(key)).isEqualTo(1);
    }

    @Test
    void IP6_mariaDbAwayFor3sAtTheCompletion_theKeyExecutesOnceAndTheOtherNodesDuplicatesReplay() throws Throwable {
        FaultProxy proxy = proxyTo(mariaDbServer());
        // the completion is the only statement that names this state
        assertOneEffectThroughA3sOutageAtTheCompletion(proxy, mariaDbThrough(proxy), StoreFixtures.mysqlStore(),
                "'COMPLETED'");
    }

    /**
     * The store resets and refuses connections for 3 s the moment the completion leaves: the first
     * caller is answered, the other node's duplicates end with the first result, one effect.
     */
    private void assertOneEffectThroughA3sOutageAtTheCompletion(FaultProxy proxy, IdempotencyStore throughProxy,
            IdempotencyStore direct, String completionMarker) throws Throwable {
        IdempotentExecutor node = executor(throughProxy);
        IdempotentExecutor otherNode = executor(direct);
        String key = "idem:fault:" + UUID.randomUUID();
        // a lease longer than the outage (and the client's reconnection): the claim outlives it
        IdempotencyConfig config = IdempotencyConfig.custom().lease(Duration.ofSeconds(30)).build();
        proxy.onClientSending(completionMarker, FaultProxy.Fault.RESET, Duration.ofSeconds(3));

        IdempotentResult<String> first = node.execute(call(key, config), () -> execute(key));

        assertThat(first.value()).isEqualTo("first");
        assertThat(proxy.triggered()).as("the reset hit the completion").isEqualTo(1);
        assertThat(outcomes).contains(IdempotencyOutcome.STORE_ERROR);
        // without a retried completion the key would stay in progress until its lease ends, then run again
        assertDuplicatesEndWithTheFirstResult(otherNode, key, config, Duration.ofSeconds(15));
        assertThat(direct.find(key).status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(effectsOf(key)).isEqualTo(1);
    }

    @Test
    void IP6_theReplyOfTheCompletionIsLost_theOwnerWritesItAgainAndWaitingDuplicatesGetIt() throws Throwable {
        FaultProxy proxy = proxyTo(mariaDbServer());
        IdempotentExecutor node = executor(mariaDbThrough(proxy));
        IdempotentExecutor otherNode = executor(StoreFixtures.mysqlStore());
        String key = "idem:fault:" + UUID.randomUUID();
        IdempotencyConfig config = IdempotencyConfig.custom().lease(Duration.ofSeconds(2)).build();
        proxy.onClientSending("'COMPLETED'", FaultProxy.Fault.DROP_REPLY, Duration.ZERO);
        // the proxy drops the reply: the connection is reset a moment later, as a dead peer would be
        Thread healer = new Thread(() -> {
            try {
                if (proxy.awaitTriggered(Duration.ofSeconds(10))) {
                    Thread.sleep(1_000);
                    proxy.heal();
                }
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        });
        healer.start();

        assertThat(node.execute(call(key, config), () -> execute(key)).value()).isEqualTo("first");

        healer.join();
        assertDuplicatesEndWithTheFirstResult(otherNode, key, config, Duration.ofSeconds(10));
        Thread.sleep(config.lease().toMillis());
        assertDuplicatesEndWithTheFirstResult(otherNode, key, config, Duration.ofSeconds(1));
        assertThat(effectsOf(key)).isEqualTo(1);
    }

    @Test
    void TP2_anInterruptingTimeoutThatLandsMidCompletionIsHeldUntilTheCompletionIsWritten() throws Throwable {
        assertATimeoutLandingMidCompletionIsHeld(TimeoutMode.INTERRUPT);
        assertThat(Thread.currentThread().isInterrupted()).as("the interrupt leaked").isFalse();
    }

    @Test
    void TP2_offloadsCancellationThatLandsMidCompletionIsHeldUntilTheCompletionIsWritten() throws Throwable {
        assertATimeoutLandingMidCompletionIsHeld(TimeoutMode.OFFLOAD);
    }

    /**
     * The work returns, then the completion's round trip outlasts the deadline: the timeout's
     * interrupt (INTERRUPT's timer, OFFLOAD's cancellation of its worker) lands inside it.
     */
    private void assertATimeoutLandingMidCompletionIsHeld(TimeoutMode mode) throws Throwable {
        FaultProxy proxy = proxyTo(redisServer());
        IdempotentExecutor node = executor(redisThrough(proxy, Duration.ofSeconds(5)));
        String key = "idem:fault:" + UUID.randomUUID();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();
        // connected before the deadline starts: a first connection is not what this test times
        node.store().ping();
        try (TimeoutRuntime runtime = TimeoutRuntime.builder().build()) {
            TimeoutGuard guard = TimeoutGuard.of("Orders.create", TimeoutConfig.custom()
                    .timeout(Duration.ofMillis(500)).mode(mode).build(), runtime);
            assertThatThrownBy(() -> guard.call(() -> node.execute(call(key, config), () -> {
                String done = execute(key);
                proxy.latency(Duration.ofMillis(700));
                return done;
            }))).isInstanceOf(DeadlineExceededException.class);
            // OFFLOAD's caller returns at the deadline while its worker is still settling
            Eventually.waitUntil("the claim was settled", () -> !outcomes.isEmpty());
        }
        proxy.heal();

        assertThat(outcomes).as("the completion was written at the first attempt")
                .containsExactly(IdempotencyOutcome.EXECUTED);
        assertThat(StoreFixtures.redisStore().find(key).status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(effectsOf(key)).isEqualTo(1);
    }
}
