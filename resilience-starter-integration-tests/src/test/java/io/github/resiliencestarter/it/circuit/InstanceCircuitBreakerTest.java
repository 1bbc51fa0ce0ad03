package io.github.resiliencestarter.it.circuit;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.circuit.CircuitBreakerAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.loadbalancer.InstanceCircuitBreakerAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.loadbalancer.RetryElsewhereAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.circuit.CircuitObserver;
import io.github.resiliencestarter.circuit.CircuitOutcome;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.it.StockInstances;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * A breaker per instance with Spring Cloud LoadBalancer over three real downstream instances, one
 * failing: its breaker opens, the other two stay closed, and once it is open neither calls nor
 * their retries are sent to it.
 */
class InstanceCircuitBreakerTest {

    private static final Map<Integer, AtomicInteger> HITS = new ConcurrentHashMap<>();

    private static final StockInstances INSTANCES = new StockInstances();

    private static final AtomicInteger FAILING_HITS_WHEN_OPENED = new AtomicInteger(-1);

    /** Requests routed to the failing instance and refused there by its open breaker. */
    private static final AtomicInteger REFUSED_AT_FAILING = new AtomicInteger();

    private static final HttpServer FAILING = server(503);

    private static final HttpServer HEALTHY_1 = server(204);

    private static final HttpServer HEALTHY_2 = server(204);

    private static HttpServer server(int status) {
        return INSTANCES.start(status,
                (port, exchange) -> HITS.computeIfAbsent(port, key -> new AtomicInteger()).incrementAndGet());
    }

    @AfterAll
    static void stop() {
        INSTANCES.stopAll();
    }

    private static String uri(HttpServer server) {
        return StockInstances.uri(server);
    }

    private static String name(HttpServer server) {
        return "inventory[127.0.0.1:" + server.getAddress().getPort() + "]";
    }

    private static int hits(HttpServer server) {
        return HITS.computeIfAbsent(server.getAddress().getPort(), key -> new AtomicInteger()).get();
    }

    @Configuration(proxyBeanMethods = false)
    static class Clients {

        @Bean
        @LoadBalanced
        RestClient.Builder loadBalanced() {
            return RestClient.builder();
        }

        @Bean
        Inventory inventory(RestClient.Builder loadBalanced) {
            return new Inventory(loadBalanced.build());
        }

        /** Notes how many requests the failing instance had received when its circuit opened. */
        @Bean
        CircuitObserver openedAt() {
            return new CircuitObserver() {
                @Override
                public void onCall(String circuit, CircuitOutcome outcome) {
                    if (circuit.equals(name(FAILING)) && outcome == CircuitOutcome.NOT_PERMITTED) {
                        REFUSED_AT_FAILING.incrementAndGet();
                    }
                }

                @Override
                public void onStateChange(String circuit, CircuitState from, CircuitState to) {
                    if (circuit.equals(name(FAILING)) && to == CircuitState.OPEN) {
                        FAILING_HITS_WHEN_OPENED.compareAndSet(-1, hits(FAILING));
                    }
                }
            };
        }
    }

    /** Calls the inventory service by name; a read, retried. */
    static class Inventory {

        private final RestClient client;

        Inventory(RestClient client) {
            this.client = client;
        }

        @Retry(name = "inventory", maxAttempts = 3, idempotent = true)
        public String stock() {
            return client.get().uri("http://inventory/stock").retrieve().body(String.class);
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, RetryAutoConfiguration.class,
                    CircuitBreakerAutoConfiguration.class, RetryElsewhereAutoConfiguration.class,
                    InstanceCircuitBreakerAutoConfiguration.class))
            .withConfiguration(AutoConfigurations.of(StockInstances.LOAD_BALANCING))
            .withUserConfiguration(Clients.class)
            .withPropertyValues("resilience.retry.instances.inventory.delay=0ms",
                    "resilience.retry.instances.inventory.budget-enabled=false",
                    "spring.cloud.loadbalancer.cache.enabled=false",
                    "resilience.circuit-breaker.instances.inventory.per-instance=true",
                    "resilience.circuit-breaker.instances.inventory.sliding-window-size=4",
                    "resilience.circuit-breaker.instances.inventory.minimum-calls=4",
                    "resilience.circuit-breaker.instances.inventory.wait-in-open-state=1h",
                    "spring.cloud.discovery.client.simple.instances.inventory[0].uri=" + uri(FAILING),
                    "spring.cloud.discovery.client.simple.instances.inventory[1].uri=" + uri(HEALTHY_1),
                    "spring.cloud.discovery.client.simple.instances.inventory[2].uri=" + uri(HEALTHY_2));

    @Test
    void theFailingInstancesBreakerOpensTheOthersStayClosedAndNothingMoreIsSentToIt() {
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            CircuitRegistry registry = context.getBean(CircuitRegistry.class);
            HITS.clear();
            REFUSED_AT_FAILING.set(0);
            ExecutorService callers = Executors.newFixedThreadPool(8);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                done.add(callers.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        inventory.stock(); // every call succeeds: a retry goes elsewhere
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
            callers.shutdown();

            assertThat(registry.guard("inventory", "127.0.0.1:" + FAILING.getAddress().getPort()).state())
                    .isEqualTo(CircuitState.OPEN);
            assertThat(registry.guard("inventory", "127.0.0.1:" + HEALTHY_1.getAddress().getPort()).state())
                    .isEqualTo(CircuitState.CLOSED);
            assertThat(registry.guard("inventory", "127.0.0.1:" + HEALTHY_2.getAddress().getPort()).state())
                    .isEqualTo(CircuitState.CLOSED);
            // it opened on its fourth failure (requests of other threads already on the wire may have
            // arrived too); after that only requests already chosen, at most one per thread, reached it
            int threads = 8;
            int whenOpened = FAILING_HITS_WHEN_OPENED.get();
            assertThat(whenOpened).isBetween(4, 4 + threads);
            assertThat(hits(FAILING) - whenOpened).isLessThanOrEqualTo(threads);
            // and the balancer stopped choosing it: only a race (its list read just before it opened)
            // meets the refusal, at most once per thread; without the list filter about a third of the
            // remaining requests would
            assertThat(REFUSED_AT_FAILING.get()).isLessThanOrEqualTo(threads);
            assertThat(hits(HEALTHY_1) + hits(HEALTHY_2)).isGreaterThanOrEqualTo(8 * 40);
            assertThat(registry.guards()).extracting(guard -> guard.name())
                    .contains(name(FAILING), name(HEALTHY_1), name(HEALTHY_2));
        });
    }
}
