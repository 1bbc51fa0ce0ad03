package io.github.resiliencestarter.autoconfigure.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.spring.actuate.ResilienceEndpoint;
import io.github.resiliencestarter.spring.actuate.ResilienceSettingsInspector;
import io.github.resiliencestarter.testsupport.BootLine;
import io.github.resiliencestarter.testsupport.DisposableRedis;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

class ObservabilityTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class,
                    ObservabilityAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("resilience.retry.delay=1ms", "resilience.retry.max-delay=2ms",
                    "resilience.observability.advisor-min-samples=20", "management.endpoints.web.exposure.include=*");

    private static double count(MeterRegistry registry, String meter, String name, String outcome) {
        var search = registry.find(meter).tag("name", name).tag("outcome", outcome);
        return search.timer() != null ? search.timer().count() : search.counter().count();
    }

    @Test
    void O1_metricsCountEachOutcomeExactly() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);

            orders.create("secret-key-1", 10);
            orders.create("secret-key-1", 10);
            assertThatThrownBy(() -> orders.create("secret-key-1", 99)).isInstanceOf(IdempotencyKeyReusedException.class);
            assertThat(count(registry, "resilience.idempotent.calls", "ORDERS", "executed")).isEqualTo(1);
            assertThat(count(registry, "resilience.idempotent.calls", "ORDERS", "replayed")).isEqualTo(1);
            assertThat(count(registry, "resilience.idempotent.calls", "ORDERS", "key_reused")).isEqualTo(1);

            orders.quick();
            assertThatThrownBy(orders::slow).isInstanceOf(DeadlineExceededException.class);
            assertThat(count(registry, "resilience.timeout.calls", "Orders.quick", "success")).isEqualTo(1);
            assertThat(count(registry, "resilience.timeout.calls", "Orders.slow", "timeout")).isEqualTo(1);

            orders.flaky();
            assertThatThrownBy(orders::broken).isInstanceOf(RetryableException.class);
            assertThat(count(registry, "resilience.retry.calls", "Orders.flaky", "success_with_retry")).isEqualTo(1);
            assertThat(count(registry, "resilience.retry.calls", "Orders.broken", "failed_with_retry")).isEqualTo(1);
            assertThat(registry.find("resilience.retry.attempts").tag("name", "Orders.flaky").counter().count())
                    .isEqualTo(2);
            // three creates and the one broken() call
            assertThat(registry.find("resilience.idempotent.store").tag("operation", "claim").timer().count())
                    .isEqualTo(4);
        });
    }

    @Test
    void O1_noMeterCarriesAHighCardinalityTag() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("trace-abc-123"))) {
                for (int i = 0; i < 20; i++) {
                    orders.create("secret-key-" + i, i);
                }
            }
            Set<String> allowedKeys = Set.of("name", "outcome", "operation", "store");
            List<Meter> meters = context.getBean(MeterRegistry.class).getMeters().stream()
                    .filter(meter -> meter.getId().getName().startsWith("resilience.")).toList();
            assertThat(meters).isNotEmpty();
            for (Meter meter : meters) {
                for (Tag tag : meter.getId().getTags()) {
                    assertThat(allowedKeys).contains(tag.getKey());
                    assertThat(tag.getValue()).doesNotContain("secret-key").doesNotContain("trace-abc");
                }
            }
            assertThat(meters.stream().map(meter -> meter.getId().getTag("name")).distinct().count())
                    .isLessThan(10);
        });
    }

    @Test
    void T2_andTP1_theAdvisorWarnsWhenTheTimeoutIsBelowTheObservedP99WithHeadroom() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            for (int i = 0; i < 25; i++) {
                orders.tight();
            }
            List<String> warnings = context.getBean(ResilienceSettingsInspector.class).warnings();
            assertThat(warnings).anySatisfy(warning -> assertThat(warning).startsWith("T-2: @Timeout of Orders.tight")
                    .contains("is 100 ms"));
            assertThat(warnings).noneSatisfy(warning -> assertThat(warning).startsWith("T-2: @Timeout of Orders.quick"));
        });
    }

    @Test
    void R3_andR1_theAdvisorWarnsAboutRetriesThatCannotFitAndDeclaredOnlyIdempotency() {
        runner.withBean(Orders.class).run(context -> {
            List<String> warnings = context.getBean(ResilienceSettingsInspector.class).warnings();
            assertThat(warnings).anySatisfy(warning -> assertThat(warning).startsWith("R-3: @Retry on Orders.overlong"));
            assertThat(warnings).anySatisfy(warning -> assertThat(warning).startsWith("R-1: @Retry on Orders.flaky"));
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void theEndpointListsEveryAnnotatedMethodWithItsResolvedSettings() {
        runner.withBean(Orders.class).withPropertyValues("resilience.timeout.mode=INTERRUPT").run(context -> {
            Map<String, Object> report = context.getBean(ResilienceEndpoint.class).report();
            Map<String, Map<String, Object>> methods = (Map<String, Map<String, Object>>) report.get("methods");
            assertThat(methods).containsKeys("Orders.create", "Orders.quick", "Orders.slow", "Orders.flaky");
            assertThat((Map<String, Object>) methods.get("Orders.quick").get("timeout"))
                    .containsEntry("timeoutMs", 1000L).containsEntry("mode", "INTERRUPT");
            assertThat((Map<String, Object>) methods.get("Orders.create").get("idempotent"))
                    .containsEntry("name", "ORDERS").containsEntry("key", "#key").containsEntry("onInProgress", "WAIT");
            assertThat((Map<String, Object>) methods.get("Orders.flaky").get("retry"))
                    .containsEntry("maxAttempts", 3).containsEntry("declaredIdempotent", true);
            assertThat(report.get("idempotencyStore")).isEqualTo("InMemoryIdempotencyStore");
        });
    }

    @Test
    void theStoreHealthGoesDownWhenRedisStopsAndUpWhenItIsBack() throws Exception {
        try (DisposableRedis server = DisposableRedis.start()) {
            StringRedisTemplate template = server.template();
            runner.withConfiguration(AutoConfigurations.of(BootLine.starterHealthAutoConfiguration()))
                    .withBean(IdempotencyStore.class, () -> new RedisIdempotencyStore(template)).run(context -> {
                        Object health = context.getBean("resilienceIdempotencyHealthIndicator");
                        assertThat(BootLine.healthStatus(health)).isEqualTo("UP");
                        server.kill();
                        assertThat(BootLine.healthStatus(health)).isEqualTo("DOWN");
                        server.resume();
                        String status = "DOWN";
                        long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                        while (!status.equals("UP") && System.nanoTime() < until) {
                            Thread.sleep(200);
                            status = BootLine.healthStatus(health);
                        }
                        assertThat(status).isEqualTo("UP");
                    });
        }
    }

    @Test
    void theStoreHealthIsDegradedNotDownWhenRequestsFailOpen() throws Exception {
        try (DisposableRedis server = DisposableRedis.start()) {
            StringRedisTemplate template = server.template();
            runner.withConfiguration(AutoConfigurations.of(BootLine.starterHealthAutoConfiguration()))
                    .withPropertyValues("resilience.idempotent.fail-open=true")
                    .withBean(IdempotencyStore.class, () -> new RedisIdempotencyStore(template)).run(context -> {
                        Object health = context.getBean("resilienceIdempotencyHealthIndicator");
                        server.kill();
                        try {
                            assertThat(BootLine.healthStatus(health)).isEqualTo("DEGRADED");
                        } finally {
                            server.resume();
                        }
                    });
        }
    }

    @Test
    void theStoreHealthIndicatorCanBeSwitchedOffLikeBootsOwn() {
        runner.withConfiguration(AutoConfigurations.of(BootLine.starterHealthAutoConfiguration()))
                .withPropertyValues("management.health.resilienceIdempotency.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("resilienceIdempotencyHealthIndicator"));
    }

    static class Orders {

        private final AtomicInteger flakyCalls = new AtomicInteger();

        @Idempotent(key = "#key", name = "ORDERS")
        public String create(String key, int amount) {
            return "order " + amount;
        }

        @Timeout("1s")
        public String quick() {
            return "quick";
        }

        @Timeout("100ms")
        public String slow() throws InterruptedException {
            Thread.sleep(2_000);
            return "slow";
        }

        @Timeout(value = "100ms", mode = io.github.resiliencestarter.timeout.TimeoutMode.INTERRUPT)
        public String tight() throws InterruptedException {
            Thread.sleep(85);
            return "tight";
        }

        @Retry(idempotent = true)
        public String flaky() {
            if (flakyCalls.incrementAndGet() % 2 == 1) {
                throw new RetryableException("BUSY", "busy");
            }
            return "flaky";
        }

        @Retry(idempotent = true, maxAttempts = 3)
        @Idempotent(key = "'broken'")
        public String broken() {
            throw new RetryableException("DOWN", "down");
        }

        @Timeout("100ms")
        @Retry(maxAttempts = 5, delay = "100ms", maxDelay = "1s", idempotent = true)
        public String overlong() {
            return "overlong";
        }
    }
}
