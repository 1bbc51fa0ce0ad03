package io.github.resiliencestarter.autoconfigure.circuit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.LiveTuningAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings;
import io.github.resiliencestarter.circuit.CircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitSnapshot;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.spring.aop.CircuitBreakerOperationSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;

/** @CircuitBreaker wired by Boot: conditions, settings, the place inside @Retry, fallback and live tuning. */
class CircuitBreakerAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TimeoutAutoConfiguration.class, RetryAutoConfiguration.class,
                    CircuitBreakerAutoConfiguration.class, LiveTuningAutoConfiguration.class))
            .withPropertyValues("resilience.retry.delay=1ms", "resilience.retry.max-delay=2ms",
                    "resilience.circuit-breaker.instances.inventory.sliding-window-size=4",
                    "resilience.circuit-breaker.instances.inventory.minimum-calls=4",
                    "resilience.circuit-breaker.instances.inventory.wait-in-open-state=1h")
            .withBean(Inventory.class);

    /** A downstream client whose calls fail until it recovers; state read through methods, not a proxy's fields. */
    public static class Inventory {

        private final AtomicBoolean failing = new AtomicBoolean(true);

        private final AtomicInteger calls = new AtomicInteger();

        private final AtomicInteger reserveAttempts = new AtomicInteger();

        public int calls() {
            return calls.get();
        }

        public void recover() {
            failing.set(false);
        }

        @CircuitBreaker(name = "inventory")
        public String stock() {
            calls.incrementAndGet();
            if (failing.get()) {
                throw new RetryableException("DOWN", "503 from inventory");
            }
            return "12";
        }

        @Retry(name = "inventory-retry", idempotent = true, maxAttempts = 3)
        @CircuitBreaker(name = "reserve")
        public String reserve() {
            if (reserveAttempts.incrementAndGet() < 3) {
                throw new RetryableException("DOWN", "503 from inventory");
            }
            return "reserved";
        }

        @CircuitBreaker(name = "inventory", fallbackMethod = "cachedStock")
        public String stockOrCached() {
            return stock();
        }

        String cachedStock(CircuitOpenException refused) {
            return "cached";
        }
    }

    private static void openInventory(Inventory inventory) {
        for (int i = 0; i < 4; i++) {
            assertThatThrownBy(inventory::stock).isInstanceOf(RetryableException.class);
        }
    }

    @Test
    void theBreakerOpensAfterItsThresholdAndRefusedCallsNeverRunTheMethod() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            openInventory(inventory);
            assertThatThrownBy(inventory::stock).isInstanceOf(CircuitOpenException.class)
                    .hasMessageContaining("'inventory'");
            assertThat(inventory.calls()).isEqualTo(4);
            assertThat(context.getBean(CircuitRegistry.class).guard("inventory").state()).isEqualTo(CircuitState.OPEN);
        });
    }

    @Test
    void eachRetryAttemptIsOneCallThroughTheBreaker() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            assertThat(inventory.reserve()).isEqualTo("reserved");
            CircuitSnapshot recorded = context.getBean(CircuitRegistry.class).guard("reserve").snapshot();
            // breaker outside the retry would have seen one successful call
            assertThat(recorded.bufferedCalls()).isEqualTo(3);
            assertThat(recorded.failedCalls()).isEqualTo(2);
        });
    }

    @Test
    void anOpenCircuitAnswersWithTheFallback() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            openInventory(inventory);
            assertThat(inventory.stockOrCached()).isEqualTo("cached");
            assertThat(inventory.calls()).isEqualTo(4);
        });
    }

    @Test
    void unnamedBreakersAndNamedOnesShareByName() {
        runner.run(context -> {
            context.getBean(Inventory.class).reserve();
            assertThat(context.getBean(CircuitBreakerOperationSource.class).operations())
                    .extracting(operation -> operation.guard().name()).contains("inventory", "reserve");
        });
    }

    @Test
    void switchedOffThereIsNoBreakerAndTheMethodRunsPlainly() {
        runner.withPropertyValues("resilience.circuit-breaker.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(CircuitRegistry.class);
            Inventory inventory = context.getBean(Inventory.class);
            for (int i = 0; i < 8; i++) {
                assertThatThrownBy(inventory::stock).isInstanceOf(RetryableException.class);
            }
        });
    }

    @Test
    void withoutResilience4jAnAnnotatedMethodStopsTheStartNamingTheDependency() {
        runner.withClassLoader(new FilteredClassLoader(CircuitBreakerAutoConfiguration.ENGINE)).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("io.github.resilience4j:resilience4j-circuitbreaker");
        });
    }

    @Test
    void withoutResilience4jAndWithoutTheAnnotationNothingChanges() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                        RetryAutoConfiguration.class, CircuitBreakerAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(CircuitBreakerAutoConfiguration.ENGINE))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(CircuitRegistry.class);
                });
    }

    @Test
    void withRetriesSwitchedOffA5xxStillCountsAgainstTheDownstream() {
        runner.withPropertyValues("resilience.retry.enabled=false").run(context -> {
            assertThat(context.getBean(CircuitRegistry.class).config("inventory").classifier()
                    .isRetryable(new HttpServerErrorException(HttpStatus.SERVICE_UNAVAILABLE))).isTrue();
            assertThat(context.getBean(CircuitRegistry.class).config("inventory").classifier()
                    .isRetryable(new HttpClientErrorException(HttpStatus.NOT_FOUND))).isFalse();
        });
    }

    @Test
    void anInvalidThresholdStopsTheStartNamingTheProperty() {
        runner.withPropertyValues("resilience.circuit-breaker.instances.inventory.failure-rate-threshold=0")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("failure-rate-threshold");
                });
    }

    @Test
    void aCustomizerAdjustsItsBreakerAfterTheProperties() {
        runner.withBean(CircuitBreakerConfigCustomizer.class,
                () -> CircuitBreakerConfigCustomizer.of("inventory", builder -> builder.halfOpenCalls(2)))
                .run(context -> {
                    CircuitRegistry registry = context.getBean(CircuitRegistry.class);
                    assertThat(registry.config("inventory").halfOpenCalls()).isEqualTo(2);
                    assertThat(registry.config("inventory").minimumCalls()).isEqualTo(4);
                });
    }

    @Test
    void anApplicationsOwnRegistryWins() {
        CircuitRegistry own = CircuitRegistry.of(io.github.resiliencestarter.circuit.CircuitBreakerConfig.ofDefaults(),
                Map.of(), io.github.resiliencestarter.circuit.CircuitObserver.NOOP);
        runner.withBean(CircuitRegistry.class, () -> own)
                .run(context -> assertThat(context.getBean(CircuitRegistry.class)).isSameAs(own));
    }

    @Test
    void aThresholdRetunedWhileCallsRunAppliesAndAnInvalidOneIsRefused() throws Exception {
        Map<String, Object> live = new ConcurrentHashMap<>();
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("live", live))).run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    inventory.recover();
                    CircuitRegistry registry = context.getBean(CircuitRegistry.class);
                    ResilienceSettings settings = context.getBean(ResilienceSettings.class);
                    ExecutorService callers = Executors.newFixedThreadPool(4);
                    AtomicBoolean running = new AtomicBoolean(true);
                    CountDownLatch started = new CountDownLatch(4);
                    List<Future<Integer>> results = new ArrayList<>();
                    for (int i = 0; i < 4; i++) {
                        results.add(callers.submit(() -> {
                            int made = 0;
                            started.countDown();
                            while (running.get()) {
                                inventory.stock();
                                made++;
                            }
                            return made;
                        }));
                    }
                    assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
                    for (int round = 0; round < 20; round++) {
                        float threshold = round % 2 == 0 ? 80 : 60;
                        live.put("resilience.circuit-breaker.instances.inventory.failure-rate-threshold", threshold);
                        assertThat(settings.reload()).isTrue();
                        assertThat(registry.guard("inventory").config().failureRateThreshold()).isEqualTo(threshold);
                    }
                    live.put("resilience.circuit-breaker.instances.inventory.failure-rate-threshold", 150);
                    assertThat(settings.reload()).isFalse();
                    assertThat(settings.lastRejection()).contains("failure-rate-threshold");
                    assertThat(registry.guard("inventory").config().failureRateThreshold()).isEqualTo(60);
                    running.set(false);
                    for (Future<Integer> result : results) {
                        assertThat(result.get(5, TimeUnit.SECONDS)).isPositive(); // no call failed
                    }
                    callers.shutdown();
                    assertThat(registry.guard("inventory").state()).isEqualTo(CircuitState.CLOSED);
                });
    }
}
