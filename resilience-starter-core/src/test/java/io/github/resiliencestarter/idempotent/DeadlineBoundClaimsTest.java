package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.spring.redis.DeadlineBoundRedisConnectionFactoryPostProcessor;
import io.github.resiliencestarter.testsupport.FaultProxy;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The caller's deadline bounds what is done for it, and only that (rule T-P4, on real servers): a
 * claim answered after the deadline runs nothing and frees its key; a JDBC claim waiting on a lock
 * is cut at the deadline; a settlement is never refused by a store client bounded by the deadline.
 */
class DeadlineBoundClaimsTest {

    private final List<IdempotencyOutcome> outcomes = new CopyOnWriteArrayList<>();

    private IdempotentExecutor executor(IdempotencyStore store) {
        return IdempotentExecutor.builder(store, new Fastjson2ResponseCodec())
                .observer((operation, outcome) -> outcomes.add(outcome)).build();
    }

    private static IdempotentCall call(String key) {
        return new IdempotentCall("Orders.create", key, "fp", String.class, IdempotencyConfig.ofDefaults());
    }

    private static TraceScope deadlineIn(Duration budget) {
        return TraceContextHolder.open(TraceContext.empty().withDeadline(Deadline.after(budget)));
    }

    @Test
    void TP4_aClaimAnsweredAfterTheDeadlineRunsNothingAndFreesTheKey() throws Throwable {
        URI redis = URI.create(RealServers.redisUrl());
        try (FaultProxy proxy = FaultProxy.to(redis.getHost(), redis.getPort())) {
            LettuceConnectionFactory factory = new LettuceConnectionFactory(
                    new RedisStandaloneConfiguration("127.0.0.1", proxy.port()));
            factory.afterPropertiesSet();
            factory.start();
            try {
                IdempotencyStore store = new RedisIdempotencyStore(factory);
                store.ping();
                String key = "idem:late-claim:" + UUID.randomUUID();
                AtomicInteger executions = new AtomicInteger();
                proxy.latency(Duration.ofMillis(300));
                try (TraceScope scope = deadlineIn(Duration.ofMillis(200))) {
                    assertThatThrownBy(() -> executor(store).execute(call(key), () -> "ran-" + executions.incrementAndGet()))
                            .isInstanceOf(DeadlineExceededException.class);
                }
                proxy.heal();

                assertThat(executions).hasValue(0);
                // released: the client's retry, with a budget of its own, runs at once
                assertThat(executor(StoreFixtures.redisStore()).execute(call(key),
                        () -> "ran-" + executions.incrementAndGet()).value()).isEqualTo("ran-1");
            } finally {
                factory.destroy();
            }
        }
    }

    @Test
    void TP4_aJdbcClaimWaitingOnALockIsCutAtTheDeadline() throws Throwable {
        JdbcIdempotencyStore store = StoreFixtures.mysqlStore();
        String key = "idem:locked-claim:" + UUID.randomUUID();
        AtomicInteger executions = new AtomicInteger();
        try (Connection holder = StoreFixtures.mysqlDataSource().getConnection()) {
            // another transaction inserts the same key and keeps it uncommitted: the claim's insert waits on it
            holder.setAutoCommit(false);
            try (PreparedStatement insert = holder.prepareStatement("INSERT INTO " + JdbcIdempotencyStore.DEFAULT_TABLE
                    + " (idempotency_key, business_type, fingerprint, status, owner_token, lease_expire_time,"
                    + " create_time, expire_time) VALUES (?, 'op', 'fp', 'IN_PROGRESS', 'holder', 0, 0, ?)")) {
                insert.setString(1, key);
                insert.setLong(2, System.currentTimeMillis() + 60_000);
                insert.executeUpdate();
            }
            long started = System.nanoTime();
            try (TraceScope scope = deadlineIn(Duration.ofMillis(800))) {
                assertThatThrownBy(() -> executor(store).execute(call(key), () -> "ran-" + executions.incrementAndGet()))
                        .isInstanceOf(DeadlineExceededException.class);
            }
            long tookMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
            holder.rollback();

            // the lock is held for as long as the test wants (InnoDB waits 50 s): the deadline cut it
            assertThat(tookMillis).isLessThan(4_000);
        }
        assertThat(executions).hasValue(0);
    }

    @Test
    void TP4_aSettlementIsNeverRefusedByAStoreClientBoundToTheDeadline() throws Throwable {
        RedisConnectionFactory bound = (RedisConnectionFactory) new DeadlineBoundRedisConnectionFactoryPostProcessor()
                .postProcessAfterInitialization(StoreFixtures.redisConnectionFactory(), "redisConnectionFactory");
        IdempotencyStore store = new RedisIdempotencyStore(bound);
        String key = "idem:bound-settle:" + UUID.randomUUID();
        try (TraceScope scope = deadlineIn(Duration.ofMillis(300))) {
            // work that ignores the deadline and returns after it: its completion must still be written
            assertThat(executor(store).execute(call(key), () -> {
                Thread.sleep(500);
                return "late";
            }).value()).isEqualTo("late");
        }

        assertThat(outcomes).as("written at the first attempt").containsExactly(IdempotencyOutcome.EXECUTED);
        assertThat(StoreFixtures.redisStore().find(key).status()).isEqualTo(IdempotencyStatus.COMPLETED);
    }
}
