package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.observability.ObservabilityAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.support.NearCacheIdempotencyStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code resilience.idempotent.near-cache.*}: off by default, on in front of the store, metered. */
class NearCacheAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class,
                    ObservabilityAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withBean(Orders.class);

    /** An idempotent service. */
    static class Orders {

        private final AtomicInteger executions = new AtomicInteger();

        public int executions() {
            return executions.get();
        }

        @Idempotent(key = "#orderNo")
        public String create(String orderNo) {
            return orderNo + "#" + executions.incrementAndGet();
        }
    }

    @Test
    void offByDefault() {
        runner.run(context -> assertThat(context.getBean(IdempotentExecutor.class).store())
                .isNotInstanceOf(NearCacheIdempotencyStore.class));
    }

    @Test
    void onItAnswersReplaysFromMemoryAndCountsHitsAndMisses() {
        runner.withPropertyValues("resilience.idempotent.near-cache.enabled=true",
                "resilience.idempotent.near-cache.maximum-size=50").run(context -> {
                    assertThat(context.getBean(IdempotentExecutor.class).store())
                            .isInstanceOf(NearCacheIdempotencyStore.class);
                    Orders orders = context.getBean(Orders.class);
                    String first = orders.create("A-1");
                    for (int i = 0; i < 5; i++) {
                        assertThat(orders.create("A-1")).isEqualTo(first);
                    }
                    assertThat(orders.executions()).isEqualTo(1);
                    // what Spring Boot's metrics auto-configuration does with every MeterBinder bean
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean("idempotencyNearCacheMetrics", MeterBinder.class).bindTo(registry);
                    assertThat(registry.get("cache.gets").tag("cache", ObservabilityAutoConfiguration.NEAR_CACHE_METRICS)
                            .tag("result", "hit").functionCounter().count()).isEqualTo(4.0);
                });
    }

    @Test
    void onWithoutCaffeineFailsTheStartNamingTheProperty() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                IdempotencyAutoConfiguration.class)).withClassLoader(new FilteredClassLoader(Caffeine.class))
                .withPropertyValues("resilience.idempotent.near-cache.enabled=true").run(context -> assertThat(context)
                        .hasFailed().getFailure().hasStackTraceContaining("near-cache.enabled")
                        .hasStackTraceContaining("com.github.ben-manes.caffeine:caffeine"));
    }
}
