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
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.NearCacheIdempotencyStore;
import java.net.URI;
import java.time.Duration;
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
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Cases 4 and 5: {@code @Idempotent}'s executor on the real Redis and MariaDB servers, 16 threads,
 * against the raw minimum for the same work with the same client: a first execution is a claim
 * plus a completion (Redis {@code SET NX PX} + {@code SET XX PX}; SQL {@code INSERT} +
 * {@code UPDATE}), a replay is one read ({@code GET}; {@code SELECT}). Servers come from
 * {@code RESILIENCE_TEST_REDIS_URL} and {@code RESILIENCE_TEST_JDBC_*}, as in the tests.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(16)
public class StoreBenchmark {

    private static final long TTL_MILLIS = 120_000;

    @Param({"redis", "jdbc"})
    public String store;

    private final AtomicLong counter = new AtomicLong();

    private final String run = Long.toHexString(System.nanoTime());

    private LettuceConnectionFactory redisFactory;

    private StringRedisTemplate redis;

    private HikariDataSource dataSource;

    private JdbcTemplate jdbc;

    private IdempotentExecutor executor;

    /** The same store behind the near cache of completed records. */
    private IdempotentExecutor nearCached;

    private final IdempotencyConfig config = IdempotencyConfig.custom().ttl(Duration.ofMillis(TTL_MILLIS)).build();

    @Setup
    public void start() {
        IdempotencyStore idempotencyStore;
        if (store.equals("redis")) {
            URI uri = URI.create(required("RESILIENCE_TEST_REDIS_URL"));
            redisFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
            redisFactory.afterPropertiesSet();
            redisFactory.start();
            redis = new StringRedisTemplate(redisFactory);
            redis.afterPropertiesSet();
            idempotencyStore = new RedisIdempotencyStore(redisFactory); // as the auto-configuration builds it
        } else {
            dataSource = new HikariDataSource();
            dataSource.setJdbcUrl(required("RESILIENCE_TEST_JDBC_URL"));
            dataSource.setUsername(System.getenv("RESILIENCE_TEST_JDBC_USER"));
            dataSource.setPassword(System.getenv("RESILIENCE_TEST_JDBC_PASSWORD"));
            dataSource.setMaximumPoolSize(16);
            JdbcIdempotencySchema.create(dataSource, JdbcIdempotencyStore.DEFAULT_TABLE);
            jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("CREATE TABLE IF NOT EXISTS bench_raw (k VARCHAR(255) NOT NULL PRIMARY KEY,"
                    + " status VARCHAR(16) NOT NULL, response TEXT NULL, expire_time BIGINT NOT NULL)");
            idempotencyStore = new JdbcIdempotencyStore(dataSource, new DataSourceTransactionManager(dataSource),
                    JdbcIdempotencyStore.DEFAULT_TABLE, TimeSource.SYSTEM);
        }
        executor = IdempotentExecutor.builder(idempotencyStore, new Fastjson2ResponseCodec()).build();
        nearCached = IdempotentExecutor.builder(new NearCacheIdempotencyStore(idempotencyStore,
                NearCacheIdempotencyStore.DEFAULT_MAXIMUM_SIZE, NearCacheIdempotencyStore.DEFAULT_TTL,
                TimeSource.SYSTEM), new Fastjson2ResponseCodec()).build();
        // the replayed key and its raw twin
        try {
            executor.execute(call("replayed"), () -> "first result");
        } catch (Throwable ex) {
            throw new IllegalStateException(ex);
        }
        rawFirst("replayed-raw");
    }

    @TearDown
    public void stop() {
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
        return new IdempotentCall("bench", "bench:" + run + ":" + key, "fp", String.class, config);
    }

    @Benchmark
    public Object firstExecutionOurs() throws Throwable {
        return executor.execute(call(Long.toString(counter.incrementAndGet())), () -> "result").value();
    }

    @Benchmark
    public Object firstExecutionRaw() {
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
        String key = "bench:" + run + ":replayed-raw";
        if (redis != null) {
            return redis.opsForValue().get(key);
        }
        return jdbc.queryForList("SELECT status, response, expire_time FROM bench_raw WHERE k = ?", key);
    }

    private Object rawFirst(String suffix) {
        String key = "bench:" + run + ":" + suffix;
        if (redis != null) {
            Boolean claimed = redis.opsForValue().setIfAbsent(key, "P", Duration.ofMillis(TTL_MILLIS));
            redis.opsForValue().setIfPresent(key, "\"result\"", Duration.ofMillis(TTL_MILLIS));
            return claimed;
        }
        long expiry = System.currentTimeMillis() + TTL_MILLIS;
        jdbc.update("INSERT INTO bench_raw (k, status, expire_time) VALUES (?, 'P', ?)", key, expiry);
        return jdbc.update("UPDATE bench_raw SET status = 'C', response = '\"result\"' WHERE k = ?", key);
    }
}
