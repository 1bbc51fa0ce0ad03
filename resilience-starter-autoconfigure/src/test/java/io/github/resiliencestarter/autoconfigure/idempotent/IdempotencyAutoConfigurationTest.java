package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.annotation.Retry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.springframework.http.ResponseEntity;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyPurger;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import io.github.resiliencestarter.testsupport.BootLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;

@ExtendWith(OutputCaptureExtension.class)
class IdempotencyAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ResilienceAutoConfiguration.class, IdempotencyAutoConfiguration.class,
                    RetryAutoConfiguration.class));

    /** No Redis connection factory and no DataSource bean: the runner configures neither. */
    private final ApplicationContextRunner withoutDataSource = runner;

    @Test
    void withNothingToStoreInTheStoreIsMemoryWithAWarning(CapturedOutput output) {
        withoutDataSource.run(context -> {
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
    void I4_andIP3_andC2_anIdempotentMethodPassesTheRetrySafetyGate() {
        withoutDataSource.withBean(IdempotentRetried.class).run(context -> assertThat(context).hasNotFailed());
        withoutDataSource.withPropertyValues("resilience.idempotent.enabled=false").withBean(IdempotentRetried.class)
                .run(context -> assertThat(context).hasFailed());
    }

    static class BadExpression {

        @Idempotent(key = "#order.")
        public String create(String order) {
            return order;
        }
    }

    static class IdempotentRetried {

        @Idempotent(key = "#orderNo")
        @Retry
        public String create(String orderNo) {
            return orderNo;
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
