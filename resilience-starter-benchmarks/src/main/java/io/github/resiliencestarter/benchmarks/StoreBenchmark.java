package io.github.resiliencestarter.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencySchema;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisReplicaAcks;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.NearCacheIdempotencyStore;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.URI;
import java.time.Duration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Cases 4 and 5: {@code @Idempotent}'s executor on the real Redis and MariaDB servers against the
 * raw minimum for the same work with the same client: a first execution is a claim plus a
 * completion (Redis {@code SET NX PX} + {@code SET XX PX}; SQL {@code INSERT} + {@code UPDATE}), a
 * replay is one read ({@code GET}; {@code SELECT}). 16 threads by default; {@code scripts/bench.sh}
 * runs it again at 1 and 4 ({@code -t}). Stores:
 *
 * <ul>
 *   <li>{@code redis}: the standalone test server, no replica acknowledgement;</li>
 *   <li>{@code redis-acked}: a master with one replica ({@code RESILIENCE_BENCH_REDIS_ACKED_URL}),
 *       every write acknowledged by every replica, as with Sentinel; the raw side sends the same
 *       {@code WAIT} after each write;</li>
 *   <li>{@code jdbc}: MariaDB through the MariaDB driver;</li>
 *   <li>{@code jdbc-connectorj}: the same server through MySQL Connector/J, the outside
 *       harness's driver (issue 49);</li>
 *   <li>{@code redis-boot} and {@code jdbc-boot}: the outside harness's configuration (issue 49,
 *       item 1): one Spring Boot context with the starter's auto-configuration and nothing set but
 *       the server (Connector/J for JDBC), its {@code IdempotentExecutor} and store, and the raw
 *       side on the context's own {@code StringRedisTemplate} or {@code JdbcTemplate}, so on Boot's
 *       pool shapes (Lettuce's one shared connection, HikariCP's ten connections for 16 threads;
 *       the {@code jdbc} stores above use HikariCP's default too).</li>
 * </ul>
 *
 * Servers come from {@code RESILIENCE_TEST_REDIS_URL} and {@code RESILIENCE_TEST_JDBC_*}, as in the
 * tests.
 *
 * <p>Each trial starts from servers without what earlier trials wrote ({@link #emptyEarlierTrials}):
 * a first execution's trial leaves a few hundred thousand keys and rows, and their expiry and
 * purge would otherwise run on the same two cores during whichever trial comes next, so the
 * order of the trials would decide their figures (issue 49: in one run, the Redis replay was
 * 1.05 x a raw {@code GET} as this harness builds the store and 0.71 x in the Boot context's trial
 * after it, whose iterations climbed from 26 to 68 thousand a second). Every JDBC store, the Boot one included,
 * uses HikariCP's default pool of ten connections, as an application does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(16)
public class StoreBenchmark {

    private static final long TTL_MILLIS = 120_000;

    /** Every key this benchmark writes starts with it, on either side. */
    private static final String KEY_PREFIX = "bench:";

    /**
     * The stores' table: the benchmark's own, so a trial can drop it, which leaves no deleted rows
     * for the server to purge while the next trial measures.
     */
    private static final String STORE_TABLE = "bench_idempotency";

    private static final String RAW_TABLE = "bench_raw";

    /** How long the master waits for its replica's acknowledgement. */
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(1);

    @Param({"redis", "redis-acked", "jdbc", "jdbc-connectorj", "redis-boot", "jdbc-boot"})
    public String store;

    private final AtomicLong counter = new AtomicLong();

    private final String run = Long.toHexString(System.nanoTime());

    private LettuceConnectionFactory redisFactory;

    private StringRedisTemplate redis;

    private HikariDataSource dataSource;

    private JdbcTemplate jdbc;

    /** Whether every write waits for the replica (store {@code redis-acked}). */
    private boolean acked;

    /** The raw side's own connection for acknowledged writes. */
    private RedisClient ackedClient;

    private StatefulRedisConnection<String, String> ackedConnection;

    private IdempotentExecutor executor;

    /** The Boot context of the {@code -boot} stores. */
    private ConfigurableApplicationContext context;

    /** The same store behind the near cache of completed records. */
    private IdempotentExecutor nearCached;

    private final IdempotencyConfig config = IdempotencyConfig.custom().ttl(Duration.ofMillis(TTL_MILLIS)).build();

    /** The outside harness's application: the starter's auto-configuration, nothing of its own. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class BootDefaults {
    }

    @Setup
    public void start() throws SQLException {
        emptyEarlierTrials();
        IdempotencyStore idempotencyStore;
        if (store.endsWith("-boot")) {
            context = new SpringApplicationBuilder(BootDefaults.class).web(WebApplicationType.NONE)
                    .properties(bootProperties(store.startsWith("redis"))).run();
            idempotencyStore = context.getBean(IdempotencyStore.class);
            if (store.startsWith("redis")) {
                redis = context.getBean(StringRedisTemplate.class);
            } else {
                jdbc = context.getBean(JdbcTemplate.class);
                createRawTable();
            }
        } else if (store.startsWith("redis")) {
            acked = store.equals("redis-acked");
            URI uri = URI.create(required(acked ? "RESILIENCE_BENCH_REDIS_ACKED_URL" : "RESILIENCE_TEST_REDIS_URL"));
            redisFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
            redisFactory.afterPropertiesSet();
            redisFactory.start();
            redis = new StringRedisTemplate(redisFactory);
            redis.afterPropertiesSet();
            if (acked) {
                ackedClient = RedisClient.create(RedisURI.create(uri.getHost(), uri.getPort()));
                ackedConnection = ackedClient.connect();
            }
            // as the auto-configuration builds it
            idempotencyStore = acked ? new RedisIdempotencyStore(redisFactory, RedisReplicaAcks.everyReplica(ACK_TIMEOUT))
                    : new RedisIdempotencyStore(redisFactory);
        } else {
            dataSource = new HikariDataSource();
            String url = required("RESILIENCE_TEST_JDBC_URL");
            dataSource.setJdbcUrl(store.equals("jdbc-connectorj") ? url.replaceFirst("^jdbc:mariadb:", "jdbc:mysql:") : url);
            dataSource.setUsername(System.getenv("RESILIENCE_TEST_JDBC_USER"));
            dataSource.setPassword(System.getenv("RESILIENCE_TEST_JDBC_PASSWORD"));
            JdbcIdempotencySchema.create(dataSource, STORE_TABLE);
            jdbc = new JdbcTemplate(dataSource);
            createRawTable();
            idempotencyStore = new JdbcIdempotencyStore(dataSource, new DataSourceTransactionManager(dataSource),
                    STORE_TABLE, TimeSource.SYSTEM);
        }
        executor = context != null ? context.getBean(IdempotentExecutor.class)
                : IdempotentExecutor.builder(idempotencyStore, new Fastjson2ResponseCodec()).build();
        nearCached = IdempotentExecutor.builder(new NearCacheIdempotencyStore(idempotencyStore,
                NearCacheIdempotencyStore.DEFAULT_MAXIMUM_SIZE, NearCacheIdempotencyStore.DEFAULT_TTL,
                TimeSource.SYSTEM), new Fastjson2ResponseCodec()).build();
        // the replayed key and its raw twin
        try {
            executor.execute(call("replayed"), () -> "first result");
        } catch (Throwable ex) {
            throw new IllegalStateException(ex);
        }
        try {
            rawFirst("replayed-raw");
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static String[] bootProperties(boolean onRedis) {
        String[] common = {"logging.level.root=WARN", "spring.main.banner-mode=off"};
        String[] server = onRedis
                ? new String[] {"resilience.idempotent.store=redis", "spring.data.redis.url=" + required("RESILIENCE_TEST_REDIS_URL"),
                        // no database in this application: as the outside harness, which had no URL for one
                        "spring.autoconfigure.exclude=" + DataSourceAutoConfiguration.class.getName()}
                : new String[] {"resilience.idempotent.store=jdbc", "resilience.idempotent.jdbc.initialize-schema=always",
                        "resilience.idempotent.jdbc.table=" + STORE_TABLE,
                        "spring.datasource.url=" + required("RESILIENCE_TEST_JDBC_URL").replaceFirst("^jdbc:mariadb:", "jdbc:mysql:"),
                        "spring.datasource.username=" + System.getenv("RESILIENCE_TEST_JDBC_USER"),
                        "spring.datasource.password=" + System.getenv("RESILIENCE_TEST_JDBC_PASSWORD")};
        String[] all = new String[common.length + server.length];
        System.arraycopy(common, 0, all, 0, common.length);
        System.arraycopy(server, 0, all, common.length, server.length);
        return all;
    }

    private void createRawTable() {
        jdbc.execute("CREATE TABLE IF NOT EXISTS " + RAW_TABLE + " (k VARCHAR(255) NOT NULL PRIMARY KEY,"
                + " status VARCHAR(16) NOT NULL, response TEXT NULL, expire_time BIGINT NOT NULL)");
    }

    /**
     * Removes what earlier trials wrote, on every server the benchmark writes to, whichever store
     * this trial measures (a Redis trial's keys would otherwise expire during a JDBC trial): the
     * Redis keys under {@link #KEY_PREFIX}, deleted synchronously so no memory is freed in the
     * background later, and the two tables the benchmark owns, dropped (the set-up creates them
     * again), which leaves no deleted rows for the server to purge.
     */
    private static void emptyEarlierTrials() throws SQLException {
        for (String variable : List.of("RESILIENCE_TEST_REDIS_URL", "RESILIENCE_BENCH_REDIS_ACKED_URL")) {
            String url = System.getenv(variable);
            if (url == null || url.isBlank()) {
                continue;
            }
            RedisClient client = RedisClient.create(url);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> commands = connection.sync();
                ScanArgs earlier = ScanArgs.Builder.matches(KEY_PREFIX + "*").limit(10_000);
                ScanCursor cursor = ScanCursor.INITIAL;
                do {
                    KeyScanCursor<String> page = commands.scan(cursor, earlier);
                    if (!page.getKeys().isEmpty()) {
                        commands.del(page.getKeys().toArray(String[]::new));
                    }
                    cursor = page;
                } while (!cursor.isFinished());
            } finally {
                client.shutdown();
            }
        }
        String url = System.getenv("RESILIENCE_TEST_JDBC_URL");
        if (url != null && !url.isBlank()) {
            try (Connection connection = DriverManager.getConnection(url, System.getenv("RESILIENCE_TEST_JDBC_USER"),
                    System.getenv("RESILIENCE_TEST_JDBC_PASSWORD")); Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + RAW_TABLE);
                statement.execute("DROP TABLE IF EXISTS " + STORE_TABLE);
            }
        }
    }

    @TearDown
    public void stop() {
        if (context != null) {
            context.close();
            return;
        }
        if (ackedClient != null) {
            ackedConnection.close();
            ackedClient.shutdown();
        }
        if (redisFactory != null) {
            redisFactory.destroy();
        }
        if (dataSource != null) {
            dataSource.close();
        }
    }

    private static String required(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(variable + " is not set: run scripts/bench.sh, which starts the servers");
        }
        return value;
    }

    private IdempotentCall call(String key) {
        return new IdempotentCall("bench", KEY_PREFIX + run + ":" + key, "fp", String.class, config);
    }

    @Benchmark
    public Object firstExecutionOurs() throws Throwable {
        return executor.execute(call(Long.toString(counter.incrementAndGet())), () -> "result").value();
    }

    @Benchmark
    public Object firstExecutionRaw() throws Exception {
        return rawFirst("raw-" + counter.incrementAndGet());
    }

    @Benchmark
    public Object replayOurs() throws Throwable {
        return executor.execute(call("replayed"), () -> "never").value();
    }

    @Benchmark
    public Object replayNearCached() throws Throwable {
        return nearCached.execute(call("replayed"), () -> "never").value();
    }

    @Benchmark
    public Object replayRaw() {
        String key = KEY_PREFIX + run + ":replayed-raw";
        if (redis != null) {
            return redis.opsForValue().get(key);
        }
        return jdbc.queryForList("SELECT status, response, expire_time FROM " + RAW_TABLE + " WHERE k = ?", key);
    }

    /**
     * The raw twin of an acknowledged write, as the store sends it: the write and {@code WAIT 1}
     * pipelined on a connection of its own (a {@code WAIT} on the shared connection would hold up
     * every other command).
     */
    private String rawAcknowledged(String key, SetArgs args, String value) throws Exception {
        RedisAsyncCommands<String, String> commands = ackedConnection.async();
        RedisFuture<String> written = commands.set(key, value, args);
        RedisFuture<Long> acknowledged = commands.waitForReplication(1, ACK_TIMEOUT.toMillis());
        String answer = written.get(ACK_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
        if (acknowledged.get(ACK_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS) < 1) {
            throw new IllegalStateException("the replica did not acknowledge: is it attached?");
        }
        return answer;
    }

    private Object rawFirst(String suffix) throws Exception {
        String key = KEY_PREFIX + run + ":" + suffix;
        if (acked) {
            String claimed = rawAcknowledged(key, SetArgs.Builder.nx().px(TTL_MILLIS), "P");
            rawAcknowledged(key, SetArgs.Builder.xx().px(TTL_MILLIS), "\"result\"");
            return claimed;
        }
        if (redis != null) {
            Boolean claimed = redis.opsForValue().setIfAbsent(key, "P", Duration.ofMillis(TTL_MILLIS));
            redis.opsForValue().setIfPresent(key, "\"result\"", Duration.ofMillis(TTL_MILLIS));
            return claimed;
        }
        long expiry = System.currentTimeMillis() + TTL_MILLIS;
        jdbc.update("INSERT INTO " + RAW_TABLE + " (k, status, expire_time) VALUES (?, 'P', ?)", key, expiry);
        return jdbc.update("UPDATE " + RAW_TABLE + " SET status = 'C', response = '\"result\"' WHERE k = ?", key);
    }
}
