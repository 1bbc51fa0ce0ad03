package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyPurger;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.testsupport.BootLine;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.http.ResponseEntity;

@ExtendWith(OutputCaptureExtension.class)
class IdempotencyAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ResilienceAutoConfiguration.class, IdempotencyAutoConfiguration.class,
                    RetryAutoConfiguration.class));

    /** No Redis connection factory and no DataSource bean: the runner configures neither. */
    private final ApplicationContextRunner withoutDataSource = runner;

    @Test
    void withNothingToStoreInTheStoreIsMemoryWithAWarning(CapturedOutput output) {
        withoutDataSource.withBean(Payments.class).run(context -> {
            assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class).hasSingleBean(IdempotentExecutor.class)
                    .hasBean("idempotentAdvisor");
            assertThat(output.getOut()).contains("Idempotency store: memory");
        });
    }

    @Test
    void aDataSourceMakesItJdbcWithTheTableCreatedOnAnEmbeddedDatabase(CapturedOutput output) {
        withoutDataSource.withConfiguration(AutoConfigurations.of(BootLine.dataSourceAutoConfiguration(),
                BootLine.dataSourceTransactionManagerAutoConfiguration())).run(context -> {
                    assertThat(context).hasSingleBean(JdbcIdempotencyStore.class)
                            .hasSingleBean(JdbcIdempotencyPurger.class);
                    context.getBean(IdempotencyStore.class).ping();
                    assertThat(output.getOut()).contains("Idempotency store: jdbc");
                });
    }

    @Test
    void aRedisConnectionFactoryMakesItRedis() {
        runner.withBean(RedisConnectionFactory.class, StoreFixtures::redisConnectionFactory).run(context -> {
            assertThat(context).hasSingleBean(RedisIdempotencyStore.class);
            context.getBean(IdempotencyStore.class).ping();
        });
    }

    @Test
    void I3_replicaAcksReachTheRedisStore_aMasterWithoutReplicasRefusesAndReleasesTheClaim() {
        Claim claim = new Claim("idem:acks:" + UUID.randomUUID(), "Orders.create", "fp", "owner", 5_000, 60_000);
        runner.withBean(RedisConnectionFactory.class, StoreFixtures::newRedisConnectionFactory)
                .withPropertyValues("resilience.idempotent.redis.replica-acks=1",
                        "resilience.idempotent.redis.replica-ack-timeout=50ms")
                .run(context -> {
                    IdempotencyStore store = context.getBean(IdempotencyStore.class);
                    // the test server has no replica: WAIT answers 0
                    assertThatThrownBy(() -> store.claim(claim)).isInstanceOf(IdempotencyStoreException.class)
                            .hasMessageContaining("acknowledged by 0 of 1 replicas within 50 ms");
                    assertThat(store.find(claim.key())).as("the refused claim was released").isNull();
                });
        runner.withBean(RedisConnectionFactory.class, StoreFixtures::newRedisConnectionFactory).run(context ->
                assertThat(context.getBean(IdempotencyStore.class).claim(claim).owned()).isTrue());
    }

    /** A factory that finds its master through Sentinel; nothing connects until a command is sent. */
    private static LettuceConnectionFactory sentinelFactory() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisSentinelConfiguration().master("resilience").sentinel("127.0.0.1", 26379));
        factory.afterPropertiesSet();
        return factory;
    }

    @Test
    void I3_throughSentinelEveryReplicaAcknowledgesByDefault_zeroTurnsItOff(CapturedOutput output) {
        runner.withBean(RedisConnectionFactory.class, IdempotencyAutoConfigurationTest::sentinelFactory)
                .run(context -> {
                    assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
                    assertThat(output.getOut())
                            .contains("Idempotency store: redis, each write acknowledged by every replica within 250 ms");
                });
        runner.withBean(RedisConnectionFactory.class, IdempotencyAutoConfigurationTest::sentinelFactory)
                .withPropertyValues("resilience.idempotent.redis.replica-acks=0")
                .run(context -> {
                    context.getBean(IdempotencyStore.class);
                    assertThat(output.getOut()).containsOnlyOnce("each write acknowledged by")
                            .contains("Idempotency store: redis\n".translateEscapes());
                });
        // a standalone master has no failover to survive: nothing is waited for unless asked
        runner.withBean(RedisConnectionFactory.class, StoreFixtures::newRedisConnectionFactory)
                .withPropertyValues("resilience.idempotent.redis.replica-acks=all",
                        "resilience.idempotent.redis.replica-ack-timeout=50ms")
                .run(context -> assertThatThrownBy(() -> context.getBean(IdempotencyStore.class).claim(
                        new Claim("idem:acks:" + UUID.randomUUID(), "Orders.create", "fp", "owner", 5_000, 60_000)))
                        .isInstanceOf(IdempotencyStoreException.class)
                        .hasMessageContaining("acknowledged by 0 of 1 replicas (every replica the master lists)"));
    }

    @Test
    void I3_aReplicaAckCountThatIsNeitherAllNorANumberFailsTheStartNamingTheProperty() {
        runner.withPropertyValues("resilience.idempotent.redis.replica-acks=most").run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("resilience.idempotent.redis.replica-acks")
                .hasStackTraceContaining("must be all, or a number of replicas"));
    }

    @Test
    void I3_aNegativeReplicaAckCountOrAZeroWaitFailsTheStartNamingTheProperty() {
        runner.withPropertyValues("resilience.idempotent.redis.replica-acks=-1").run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("resilience.idempotent.redis.replica-acks")
                .hasStackTraceContaining("must be 0 or more"));
        runner.withPropertyValues("resilience.idempotent.redis.replica-acks=1",
                "resilience.idempotent.redis.replica-ack-timeout=0s").run(context -> assertThat(context)
                        .hasFailed().getFailure()
                        .hasStackTraceContaining("resilience.idempotent.redis.replica-ack-timeout")
                        .hasStackTraceContaining("must be positive when replicas must acknowledge"));
    }

    @Test
    void I3_onAClusterNoWriteWaitsForReplicasUnlessAsked_andTheStartSaysSo(CapturedOutput output) {
        // a cluster may have no replicas, where "all" would refuse every write: asked for, not assumed
        runner.withBean(RedisConnectionFactory.class, StoreFixtures::newRedisConnectionFactory)
                .withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:7000")
                .run(context -> {
                    context.getBean(IdempotencyStore.class);
                    assertThat(output.getOut()).contains("redis on a Cluster, and no write waits for replicas")
                            .contains("Idempotency store: redis\n".translateEscapes());
                });
        runner.withBean(RedisConnectionFactory.class, StoreFixtures::newRedisConnectionFactory)
                .withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:7000",
                        "resilience.idempotent.redis.replica-acks=all")
                .run(context -> {
                    context.getBean(IdempotencyStore.class);
                    assertThat(output.getOut()).containsOnlyOnce("no write waits for replicas")
                            .contains("Idempotency store: redis, each write acknowledged by every replica");
                });
    }

    @Test
    void theStoreCanBeForcedAndAUserStoreWins() {
        runner.withBean(RedisConnectionFactory.class, StoreFixtures::redisConnectionFactory)
                .withPropertyValues("resilience.idempotent.store=memory")
                .run(context -> assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class));
        InMemoryIdempotencyStore mine = new InMemoryIdempotencyStore();
        withoutDataSource.withBean("mine", IdempotencyStore.class, () -> mine)
                .run(context -> assertThat(context.getBean(IdempotencyStore.class)).isSameAs(mine));
    }

    @Test
    void disabledMeansNoIdempotencyBeans() {
        withoutDataSource.withPropertyValues("resilience.idempotent.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(IdempotencyStore.class).doesNotHaveBean("idempotentAdvisor"));
    }

    @Test
    void anInvalidKeyExpressionFailsTheStartNamingTheMethod() {
        withoutDataSource.withBean(BadExpression.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Idempotent(key = \"#order.\") on " + BadExpression.class.getName()
                        + ".create(String)"));
    }

    @Test
    void I4_theAnnotationAloneMakesABusinessMethodIdempotentWhenCalledThroughItsBean() {
        withoutDataSource.withBean(Payments.class).run(context -> {
            Payments payments = context.getBean(Payments.class);
            String first = payments.pay("P-1", 10);
            String duplicate = payments.pay("P-1", 10);
            String another = payments.pay("P-2", 10);

            assertThat(duplicate).isEqualTo(first);
            assertThat(another).isNotEqualTo(first);
            assertThat(payments.executions()).isEqualTo(2);
        });
    }

    @Test
    void IP3_oneAdvisorAndOneStoreProtectEveryAnnotatedMethodWithNoIdempotencyCodeInAny() {
        withoutDataSource.withBean(Payments.class).withBean(Shipments.class).run(context -> {
            Payments payments = context.getBean(Payments.class);
            Shipments shipments = context.getBean(Shipments.class);
            for (int i = 0; i < 3; i++) {
                payments.pay("K-1", 10);
                shipments.ship("K-1");
            }
            assertThat(payments.executions()).isEqualTo(1);
            assertThat(shipments.executions()).isEqualTo(1);
            // the same store holds both, one record per operation
            IdempotencyStore store = context.getBean(IdempotencyStore.class);
            assertThat(store.find(IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, "PAYMENT", "", "K-1")))
                    .isNotNull();
            assertThat(store.find(IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, "SHIPMENT", "", "K-1")))
                    .isNotNull();
        });
    }

    @Test
    void C2_aRetriedMethodStartsOnlyWithAnIdempotencyGuaranteeAndItsRetriesNeverRepeatACompletedCall() {
        withoutDataSource.withBean(IdempotentRetried.class).run(context -> {
            assertThat(context).hasNotFailed();
            IdempotentRetried orders = context.getBean(IdempotentRetried.class);
            orders.failNextAttempts(1);
            assertThat(orders.create("O-1")).isEqualTo("O-1");
            assertThat(orders.create("O-1")).isEqualTo("O-1");
            // the failed attempt and the one that completed; the duplicate replayed
            assertThat(orders.attempts()).isEqualTo(2);
        });
        withoutDataSource.withPropertyValues("resilience.idempotent.enabled=false").withBean(IdempotentRetried.class)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("@Retry on " + IdempotentRetried.class.getName() + ".create(String)"));
    }

    static class BadExpression {

        @Idempotent(key = "#order.")
        public String create(String order) {
            return order;
        }
    }

    static class IdempotentRetried {

        private final AtomicInteger attempts = new AtomicInteger();

        private final AtomicInteger failuresLeft = new AtomicInteger();

        // read and set through methods: the test holds the proxy, whose own fields are never set
        public int attempts() {
            return attempts.get();
        }

        public void failNextAttempts(int count) {
            failuresLeft.set(count);
        }

        @Idempotent(key = "#orderNo")
        @Retry(delay = "1ms", maxDelay = "2ms")
        public String create(String orderNo) {
            attempts.incrementAndGet();
            if (failuresLeft.getAndDecrement() > 0) {
                throw new RetryableException("BUSY", "busy");
            }
            return orderNo;
        }
    }

    /** A business method with no idempotency code: the annotation is all there is. */
    static class Payments {

        private final AtomicInteger executions = new AtomicInteger();

        public int executions() {
            return executions.get();
        }

        @Idempotent(key = "#orderNo", name = "PAYMENT")
        public String pay(String orderNo, int amount) {
            return "payment " + executions.incrementAndGet() + " of " + amount + " for " + orderNo;
        }
    }

    /** Another one, unrelated to the first. */
    static class Shipments {

        private final AtomicInteger executions = new AtomicInteger();

        public int executions() {
            return executions.get();
        }

        @Idempotent(key = "#orderNo", name = "SHIPMENT")
        public String ship(String orderNo) {
            return "shipment " + executions.incrementAndGet() + " for " + orderNo;
        }
    }

    @Test
    void aReturnTypeTheCodecCannotReplayFailsTheStartNamingTheMethod() {
        runner.withBean(AsyncResult.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Idempotent on " + AsyncResult.class.getName() + ".create(String)")
                .hasStackTraceContaining("java.util.concurrent.Future<java.lang.String> asynchronously")
                .hasStackTraceContaining("cannot be stored and replayed"));
        runner.withBean(EntityOfAFuture.class).run(context -> assertThat(context).hasFailed());
        runner.withBean(IdempotentRetried.class).run(context -> assertThat(context).hasNotFailed());
    }

    static class AsyncResult {

        // a future completes with the value it stores; a future of a future has nothing to store
        @Idempotent(key = "#orderNo")
        public CompletableFuture<Future<String>> create(String orderNo) {
            return CompletableFuture.completedFuture(CompletableFuture.completedFuture(orderNo));
        }
    }

    static class EntityOfAFuture {

        @Idempotent(key = "#orderNo")
        public ResponseEntity<Future<String>> create(String orderNo) {
            return null;
        }
    }
}
