package io.github.resiliencestarter.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.loadbalancer.AvoidedInstanceListener;
import io.github.resiliencestarter.autoconfigure.loadbalancer.RetryElsewhereAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.retry.RetrySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

/**
 * Rules R-5 and R-P4 with Spring Cloud LoadBalancer over three real downstream instances (one
 * failing, two healthy) found through the simple discovery client: no retry lands on the instance
 * that failed the attempt before it; with a single instance, retries still happen.
 */
class RetryElsewhereTest {

    /** Requests per instance, by port, and the instance each request of a call went to, in order. */
    private static final Map<Integer, Integer> HITS = new ConcurrentHashMap<>();

    /** Ports in the order requests reached them. */
    private static final List<Integer> ARRIVALS = new CopyOnWriteArrayList<>();

    /** Ports in the order the requests of each call (by its X-Call header) reached them. */
    private static final Map<String, List<Integer>> CALLS = new ConcurrentHashMap<>();

    private static final StockInstances INSTANCES = new StockInstances();

    private static final HttpServer FAILING = server(503);

    private static final HttpServer HEALTHY_1 = server(200);

    private static final HttpServer HEALTHY_2 = server(200);

    /** Avoided instances as the listener heard them. */
    private static final List<String> AVOIDED = new CopyOnWriteArrayList<>();

    private static HttpServer server(int status) {
        return INSTANCES.start(status, (port, exchange) -> {
            HITS.merge(port, 1, Integer::sum);
            ARRIVALS.add(port);
            String call = exchange.getRequestHeaders().getFirst("X-Call");
            if (call != null) {
                CALLS.computeIfAbsent(call, key -> new CopyOnWriteArrayList<>()).add(port);
            }
        });
    }

    @AfterAll
    static void stop() {
        INSTANCES.stopAll();
    }

    private static String uri(HttpServer server) {
        return StockInstances.uri(server);
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, RetryAutoConfiguration.class,
                    RetryElsewhereAutoConfiguration.class))
            .withConfiguration(AutoConfigurations.of(StockInstances.LOAD_BALANCING))
            .withUserConfiguration(Clients.class)
            .withPropertyValues("resilience.retry.instances.inventory.delay=0ms",
                    "resilience.retry.instances.inventory.budget-enabled=false",
                    "spring.cloud.loadbalancer.cache.enabled=false");

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

        /** What the metrics hear: each avoided instance. */
        @Bean
        AvoidedInstanceListener avoidedInstances() {
            return (serviceId, instance) -> AVOIDED.add(serviceId + " " + instance);
        }
    }

    /** Calls the inventory service by name; a read, safe to repeat. */
    static class Inventory {

        private final RestClient client;

        Inventory(RestClient client) {
            this.client = client;
        }

        @Retry(name = "inventory", maxAttempts = 3, idempotent = true)
        public String stock() {
            return client.get().uri("http://inventory/stock").retrieve().body(String.class);
        }

        @Retry(name = "inventory", maxAttempts = 3, idempotent = true)
        public String stock(String callId) {
            return client.get().uri("http://inventory/stock").header("X-Call", callId).retrieve().body(String.class);
        }
    }

    @Test
    void R5_noRetryLandsOnTheInstanceThatFailedTheAttemptBeforeIt() {
        runner.withPropertyValues(
                "spring.cloud.discovery.client.simple.instances.inventory[0].uri=" + uri(FAILING),
                "spring.cloud.discovery.client.simple.instances.inventory[1].uri=" + uri(HEALTHY_1),
                "spring.cloud.discovery.client.simple.instances.inventory[2].uri=" + uri(HEALTHY_2)).run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    int failingPort = FAILING.getAddress().getPort();
                    HITS.clear();
                    AVOIDED.clear();
                    CALLS.clear();
                    // concurrent callers interleave on the round robin: without R-5 a retry often
                    // draws the failing instance again
                    int threads = 8;
                    int callsPerThread = 40;
                    ExecutorService callers = Executors.newFixedThreadPool(threads);
                    List<Future<?>> done = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        int thread = t;
                        done.add(callers.submit(() -> {
                            for (int i = 0; i < callsPerThread; i++) {
                                assertThat(inventory.stock(thread + "-" + i)).startsWith("instance ");
                            }
                        }));
                    }
                    for (Future<?> future : done) {
                        future.get(60, TimeUnit.SECONDS);
                    }
                    callers.shutdown();

                    assertThat(CALLS).hasSize(threads * callsPerThread);
                    CALLS.forEach((call, ports) -> {
                        assertThat(ports).as(call).hasSizeLessThanOrEqualTo(2);
                        assertThat(ports.subList(1, ports.size())).as(call).doesNotContain(failingPort);
                    });
                    // round robin sent about a third of the first attempts to the failing instance
                    int failedFirstAttempts = HITS.getOrDefault(failingPort, 0);
                    assertThat(failedFirstAttempts).isBetween(threads * callsPerThread / 6, threads * callsPerThread / 2);
                    assertThat(AVOIDED).hasSize(failedFirstAttempts).containsOnly("inventory 127.0.0.1:" + failingPort);
                });
    }

    @Test
    void RP4_withASingleInstanceTheRetriesStillHappenThere() {
        runner.withPropertyValues("spring.cloud.discovery.client.simple.instances.inventory[0].uri=" + uri(FAILING))
                .run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    ARRIVALS.clear();
                    assertThatThrownBy(inventory::stock).isInstanceOf(HttpServerErrorException.class)
                            .satisfies(error -> assertThat(RetrySummary.of(error).attempts()).isEqualTo(3)
                                    .as(RetrySummary.of(error).getMessage()));
                    assertThat(ARRIVALS).hasSize(3).containsOnly(FAILING.getAddress().getPort());
                });
    }

    @Test
    void theSummaryOfAFailedCallNamesTheInstancesItAvoided() {
        runner.withPropertyValues(
                "spring.cloud.discovery.client.simple.instances.inventory[0].uri=" + uri(FAILING),
                "spring.cloud.discovery.client.simple.instances.inventory[1].uri=" + uri(server(503)))
                .run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    assertThatThrownBy(inventory::stock).satisfies(error -> assertThat(RetrySummary.of(error)
                            .getMessage()).contains("instances that failed were avoided (rule R-5)",
                                    "127.0.0.1:" + FAILING.getAddress().getPort()));
                });
    }
}
