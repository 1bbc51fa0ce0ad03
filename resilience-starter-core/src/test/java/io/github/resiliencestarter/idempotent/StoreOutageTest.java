package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencySchema;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.testsupport.DisposablePostgres;
import io.github.resiliencestarter.testsupport.DisposableRedis;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Stores pointed at a closed port: fail closed by default (nothing executed), fail open on request;
 * and real servers crashed mid-test, then brought back.
 */
class StoreOutageTest {

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static IdempotencyStore redisOnClosedPort() throws IOException {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", closedPort()),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofMillis(500)).build());
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        return new RedisIdempotencyStore(template);
    }

    private static IdempotencyStore jdbcOnClosedPort(String scheme) throws IOException {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl("jdbc:" + scheme + "://127.0.0.1:" + closedPort() + "/none");
        dataSource.setConnectionTimeout(500);
        dataSource.setInitializationFailTimeout(-1);
        return new JdbcIdempotencyStore(dataSource, null, JdbcIdempotencyStore.DEFAULT_TABLE, TimeSource.SYSTEM);
    }

    private static void assertFailsClosedThenOpen(IdempotencyStore store) throws Throwable {
        AtomicInteger executions = new AtomicInteger();
        IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec()).build();
        IdempotentCall closed = new IdempotentCall("Orders.create", "k", "fp", String.class,
                IdempotencyConfig.ofDefaults());
        assertThatThrownBy(() -> executor.execute(closed, () -> "ran-" + executions.incrementAndGet()))
                .isInstanceOf(IdempotencyStoreException.class);
        assertThat(executions.get()).isZero();

        IdempotentCall open = new IdempotentCall("Orders.create", "k", "fp", String.class,
                IdempotencyConfig.custom().failOpen(true).build());
        assertThat(executor.execute(open, () -> "ran-" + executions.incrementAndGet()).value()).isEqualTo("ran-1");
    }

    /** A server the test can crash and bring back. */
    private interface Outage {

        void begin() throws Exception;

        void end() throws Exception;
    }

    /** Works while up; fails closed without executing while down; works again once back, after reconnecting. */
    private static void assertFailsClosedWhileDownAndRecovers(IdempotencyStore store, Outage outage) throws Throwable {
        IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec()).build();
        AtomicInteger executions = new AtomicInteger();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();

        assertThat(executor.execute(new IdempotentCall("Orders.create", "up-1", "fp", String.class, config),
                () -> "ran-" + executions.incrementAndGet()).value()).isEqualTo("ran-1");
        outage.begin();
        assertThatThrownBy(() -> executor.execute(new IdempotentCall("Orders.create", "down-1", "fp",
                String.class, config), () -> "ran-" + executions.incrementAndGet()))
                .isInstanceOf(IdempotencyStoreException.class);
        assertThat(executions.get()).isEqualTo(1);

        outage.end();
        String after = null;
        long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (after == null && System.nanoTime() < until) {
            try {
                after = executor.execute(new IdempotentCall("Orders.create", "down-1", "fp", String.class,
                        config), () -> "ran-" + executions.incrementAndGet()).value();
            } catch (IdempotencyStoreException reconnecting) {
                Thread.sleep(200);
            }
        }
        assertThat(after).isEqualTo("ran-2");
    }

    @Test
    void aRedisStoppedMidTestFailsClosedAndRecoversWhenItIsBack() throws Throwable {
        try (DisposableRedis server = DisposableRedis.start()) {
            assertFailsClosedWhileDownAndRecovers(new RedisIdempotencyStore(server.template()), new Outage() {
                @Override
                public void begin() throws Exception {
                    server.kill();
                }

                @Override
                public void end() throws Exception {
                    server.resume();
                }
            });
        }
    }

    @Test
    void aPostgresCrashedMidTestFailsClosedAndRecoversWhenItIsBack() throws Throwable {
        try (DisposablePostgres server = DisposablePostgres.start()) {
            DataSource dataSource = server.dataSource();
            JdbcIdempotencySchema.create(dataSource, JdbcIdempotencyStore.DEFAULT_TABLE);
            assertFailsClosedWhileDownAndRecovers(StoreFixtures.jdbcStore(dataSource), new Outage() {
                @Override
                public void begin() throws Exception {
                    server.kill();
                }

                @Override
                public void end() throws Exception {
                    server.resume();
                }
            });
        }
    }

    @Test
    void aRedisOutageFailsClosedWithoutExecuting() throws Throwable {
        assertFailsClosedThenOpen(redisOnClosedPort());
    }

    @Test
    void aDatabaseOutageFailsClosedWithoutExecuting() throws Throwable {
        assertFailsClosedThenOpen(jdbcOnClosedPort("mariadb"));
    }

    @Test
    void aPostgresUnreachableFromTheStartFailsClosedWithoutExecuting() throws Throwable {
        // the store cannot even learn its dialect yet: that, too, is a store failure
        assertFailsClosedThenOpen(jdbcOnClosedPort("postgresql"));
    }
}
