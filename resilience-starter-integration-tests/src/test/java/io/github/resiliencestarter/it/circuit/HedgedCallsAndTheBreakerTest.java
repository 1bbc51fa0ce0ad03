package io.github.resiliencestarter.it.circuit;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.circuit.CircuitBreakerAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.circuit.CircuitGuard;
import io.github.resiliencestarter.circuit.CircuitObserver;
import io.github.resiliencestarter.circuit.CircuitOutcome;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitState;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Issue 47: a hedged read behind a breaker, against a healthy downstream that answers every request,
 * only more slowly (200 ms) than the hedge delay. Each call's losing attempt is cancelled with an interrupt,
 * which Spring's JDK client reports as an {@link IOException} caused by the interrupt; the round
 * marks each loser before cancelling it ({@code CancelMark}). Those losers must not count as failures: the downstream never failed, so the breaker must never open.
 */
class HedgedCallsAndTheBreakerTest {

    private static final List<CircuitOutcome> OUTCOMES = new CopyOnWriteArrayList<>();

    private static final AtomicInteger ARRIVED = new AtomicInteger();

    private HttpServer downstream;

    @AfterEach
    void stop() {
        if (downstream != null) {
            downstream.stop(0);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Clients {

        @Bean
        Stock stock() {
            return new Stock();
        }

        @Bean
        CircuitObserver outcomes() {
            return new CircuitObserver() {
                @Override
                public void onCall(String circuit, CircuitOutcome outcome) {
                    OUTCOMES.add(outcome);
                }
            };
        }
    }

    /** The client: a hedged read behind the breaker, on the JDK's HttpClient. */
    public static class Stock {

        private volatile RestClient client;

        public void target(String uri) {
            client = RestClient.builder().baseUrl(uri).requestFactory(new JdkClientHttpRequestFactory()).build();
        }

        @Retry(name = "stock", idempotent = true, concurrentSafe = true, maxAttempts = 3, hedgeDelay = "50ms")
        @CircuitBreaker(name = "stock")
        public String level() {
            return client.get().uri("/level").retrieve().body(String.class);
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class, RetryAutoConfiguration.class,
                    CircuitBreakerAutoConfiguration.class))
            .withUserConfiguration(Clients.class)
            .withPropertyValues("resilience.circuit-breaker.instances.stock.sliding-window-size=10",
                    "resilience.circuit-breaker.instances.stock.minimum-calls=5",
                    "resilience.circuit-breaker.instances.stock.failure-rate-threshold=50",
                    "resilience.circuit-breaker.instances.stock.slow-call-duration=10s");

    @Test
    void R6_hedgesCancelledOnAHealthySlowDownstreamNeverOpenTheBreaker() throws Exception {
        downstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        downstream.setExecutor(Executors.newFixedThreadPool(8));
        downstream.createContext("/level", exchange -> {
            ARRIVED.incrementAndGet();
            try {
                Thread.sleep(200); // healthy, but slower than the 50 ms hedge delay
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "7".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        downstream.start();
        OUTCOMES.clear();
        runner.run(context -> {
            Stock stock = context.getBean(Stock.class);
            stock.target("http://127.0.0.1:" + downstream.getAddress().getPort());
            for (int call = 0; call < 20; call++) {
                assertThat(stock.level()).isEqualTo("7");
            }
            // every call sent a hedge: the losers were cut from this side
            assertThat(ARRIVED.get()).isGreaterThan(20);
            assertThat(OUTCOMES).contains(CircuitOutcome.IGNORED).doesNotContain(CircuitOutcome.FAILURE);
            CircuitGuard breaker = context.getBean(CircuitRegistry.class).guard("stock");
            assertThat(breaker.snapshot().failedCalls()).isZero();
            assertThat(breaker.state()).isEqualTo(CircuitState.CLOSED);
        });
    }
}
