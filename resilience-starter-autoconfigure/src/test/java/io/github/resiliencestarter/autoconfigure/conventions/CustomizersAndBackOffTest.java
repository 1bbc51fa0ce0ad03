package io.github.resiliencestarter.autoconfigure.conventions;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryConfigCustomizer;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutConfigCustomizer;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyPurger;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.spring.aop.IdempotencyMarker;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import io.github.resiliencestarter.timeout.TimeoutConfigRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Customizer beans adjust named instances; explicit store choices fail clearly; user beans win. */
class CustomizersAndBackOffTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class));

    @Test
    void aRetryCustomizerAdjustsItsInstanceOnTopOfTheProperties() {
        runner.withPropertyValues("resilience.retry.instances.inventory.max-attempts=4",
                "resilience.retry.instances.inventory.delay=250ms")
                .withBean("inventoryRetry", RetryConfigCustomizer.class,
                        () -> RetryConfigCustomizer.of("inventory", builder -> builder.maxAttempts(2)))
                .withBean("pricingRetry", RetryConfigCustomizer.class,
                        () -> RetryConfigCustomizer.of("pricing", builder -> builder.maxAttempts(5)))
                .run(context -> {
                    RetryConfigRegistry registry = context.getBean(RetryConfigRegistry.class);
                    assertThat(registry.config("inventory").maxAttempts()).isEqualTo(2);
                    assertThat(registry.config("inventory").backOff().delayNanos(1, null))
                            .isEqualTo(Duration.ofMillis(250).toNanos());
                    assertThat(registry.config("pricing").maxAttempts()).isEqualTo(5);
                    assertThat(registry.config("other").maxAttempts()).isEqualTo(3);
                });
    }

    @Test
    void aTimeoutCustomizerAdjustsItsInstanceOnTopOfTheProperties() {
        runner.withPropertyValues("resilience.timeout.instances.inventory.duration=2s")
                .withBean("inventoryTimeout", TimeoutConfigCustomizer.class,
                        () -> TimeoutConfigCustomizer.of("inventory", builder -> builder.timeout(Duration.ofMillis(800))))
                .run(context -> {
                    TimeoutConfigRegistry registry = context.getBean(TimeoutConfigRegistry.class);
                    assertThat(registry.config("inventory").timeout()).isEqualTo(Duration.ofMillis(800));
                    assertThat(registry.config("other").timeout()).isEqualTo(registry.config("").timeout());
                });
    }

    @Test
    void aStoreNamedExplicitlyWithoutWhatItNeedsFailsTheStartSayingWhat() {
        // once an @Idempotent method needs the store: without one nothing is created (InertUntilUsedTest)
        ApplicationContextRunner runner = this.runner.withBean(Payments.class);
        runner.withPropertyValues("resilience.idempotent.store=redis").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause()
                .hasMessageContaining("resilience.idempotent.store=redis needs spring-data-redis and a single "
                        + "RedisConnectionFactory bean"));
        runner.withPropertyValues("resilience.idempotent.store=jdbc").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause()
                .hasMessageContaining("resilience.idempotent.store=jdbc needs spring-jdbc and a single DataSource"));
    }

    @Test
    void anApplicationJdbcStoreGetsThePurgerAndTheStarterBuildsNoStore() {
        runner.withBean("myStore", JdbcIdempotencyStore.class, StoreFixtures::mysqlStore).run(context -> {
            assertThat(context).hasSingleBean(IdempotencyStore.class).hasBean("myStore")
                    .hasSingleBean(JdbcIdempotencyPurger.class);
        });
    }

    @Test
    void applicationBeansReplaceTheCodecAndTheRetryMarker() {
        ResponseCodec mine = new Fastjson2ResponseCodec();
        IdempotencyMarker marker = () -> Deprecated.class;
        runner.withBean("myCodec", ResponseCodec.class, () -> mine)
                .withBean("idempotentRetryMarker", IdempotencyMarker.class, () -> marker)
                .run(context -> {
                    assertThat(context.getBean(ResponseCodec.class)).isSameAs(mine);
                    assertThat(context.getBean(IdempotencyMarker.class)).isSameAs(marker);
                });
    }

    /** An idempotent service. */
    static class Payments {

        @Idempotent(key = "#orderNo")
        public String pay(String orderNo) {
            return "paid " + orderNo;
        }
    }
}
