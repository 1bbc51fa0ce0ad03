package io.github.resiliencestarter.autoconfigure.circuit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.circuit.CircuitObserver;
import io.github.resiliencestarter.circuit.CircuitOutcome;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutMode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A call cut by the caller's short deadline is not the downstream's failure: a real HTTP
 * downstream that takes 2 s, called with a caller's budget of 100 ms (as the inbound filter sets
 * it) under an interrupting {@code @Timeout} of its own of 10 s. Cut before the slow-call duration
 * the calls are not counted and the circuit stays closed; given their fair chance (a slow-call
 * duration below the budget) the same cuts count and open it. A call that misses the method's own
 * 100 ms {@code @Timeout} counts, however short that timeout.
 */
class CallerDeadlineTest {

    private final CountDownLatch released = new CountDownLatch(1);

    private final List<CircuitOutcome> outcomes = new CopyOnWriteArrayList<>();

    private HttpServer downstream;

    @BeforeEach
    void start() throws Exception {
        downstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        downstream.setExecutor(Executors.newCachedThreadPool());
        downstream.createContext("/slow", exchange -> {
            try {
                released.await(2, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        downstream.start();
    }

    @AfterEach
    void stop() {
        released.countDown();
        downstream.stop(0);
    }

    /** Calls the slow downstream with an interruptible client under a short deadline. */
    public static class Pricing {

        private final RestClient client;

        private final HttpClient asyncClient = HttpClient.newHttpClient();

        private final URI slow;

        public Pricing(String uri) {
            this.client = RestClient.builder().baseUrl(uri).requestFactory(new JdkClientHttpRequestFactory()).build();
            this.slow = URI.create(uri + "/slow");
        }

        @Timeout(value = "10s", mode = TimeoutMode.INTERRUPT)
        @CircuitBreaker(name = "pricing")
        public String price() {
            return client.get().uri("/slow").retrieve().body(String.class);
        }

        @Timeout(value = "100ms", mode = TimeoutMode.INTERRUPT)
        @CircuitBreaker(name = "pricing")
        public String priceWithinOwnTimeout() {
            return client.get().uri("/slow").retrieve().body(String.class);
        }

        /** The hanging downstream, asynchronously: the timeout ends the call by cancelling it. */
        @Timeout("100ms")
        @CircuitBreaker(name = "pricing")
        public CompletableFuture<String> priceAsyncWithinOwnTimeout() {
            return asyncClient.sendAsync(HttpRequest.newBuilder(slow).build(), HttpResponse.BodyHandlers.ofString())
                    .thenApply(HttpResponse::body);
        }
    }

    private ApplicationContextRunner runner() {
        String uri = "http://127.0.0.1:" + downstream.getAddress().getPort();
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                        TimeoutAutoConfiguration.class, CircuitBreakerAutoConfiguration.class))
                .withBean(Pricing.class, () -> new Pricing(uri))
                .withBean(CircuitObserver.class, () -> new CircuitObserver() {
                    @Override
                    public void onCall(String circuit, CircuitOutcome outcome) {
                        outcomes.add(outcome);
                    }
                })
                .withPropertyValues("resilience.circuit-breaker.instances.pricing.sliding-window-size=5",
                        "resilience.circuit-breaker.instances.pricing.minimum-calls=5");
    }

    /** A call under a caller's budget of 100 ms, as the inbound filter would have set it. */
    private static Throwable underShortBudget(Pricing pricing) {
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(100))))) {
            return catchThrowable(pricing::price);
        }
    }

    private static void callSixTimes(Pricing pricing) {
        for (int i = 0; i < 6; i++) {
            assertThat(underShortBudget(pricing)).isInstanceOf(DeadlineExceededException.class);
        }
    }

    @Test
    void cutBeforeItsFairChanceACallDoesNotCountAndTheCircuitStaysClosed() {
        runner().run(context -> {
            callSixTimes(context.getBean(Pricing.class));
            assertThat(context.getBean(CircuitRegistry.class).guard("pricing").state()).isEqualTo(CircuitState.CLOSED);
            assertThat(context.getBean(CircuitRegistry.class).guard("pricing").snapshot().bufferedCalls()).isZero();
            assertThat(outcomes).hasSize(6).containsOnly(CircuitOutcome.IGNORED);
        });
    }

    @Test
    void cutAfterItsFairChanceTheSameCallsCountAndOpenTheCircuit() {
        runner().withPropertyValues("resilience.circuit-breaker.instances.pricing.slow-call-duration=50ms")
                .run(context -> {
                    Pricing pricing = context.getBean(Pricing.class);
                    for (int i = 0; i < 5; i++) {
                        assertThat(underShortBudget(pricing)).isInstanceOf(DeadlineExceededException.class);
                    }
                    assertThat(outcomes).hasSize(5).containsOnly(CircuitOutcome.FAILURE);
                    assertThat(context.getBean(CircuitRegistry.class).guard("pricing").state())
                            .isEqualTo(CircuitState.OPEN);
                });
    }

    @Test
    void aCallThatMissesTheMethodsOwnTimeoutCountsAndOpensTheCircuit() {
        runner().run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            for (int i = 0; i < 5; i++) {
                assertThat(catchThrowable(pricing::priceWithinOwnTimeout)).isInstanceOf(DeadlineExceededException.class);
            }
            assertThat(outcomes).hasSize(5).containsOnly(CircuitOutcome.FAILURE);
            assertThat(context.getBean(CircuitRegistry.class).guard("pricing").state()).isEqualTo(CircuitState.OPEN);
        });
    }

    @Test
    void anAsyncCallToAHangingDownstreamCutByTheMethodsOwnTimeoutCountsAndOpensTheCircuit() {
        runner().run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            for (int i = 0; i < 5; i++) {
                assertThat(catchThrowable(() -> pricing.priceAsyncWithinOwnTimeout().join()))
                        .hasCauseInstanceOf(DeadlineExceededException.class);
            }
            assertThat(outcomes).hasSize(5).containsOnly(CircuitOutcome.FAILURE);
            assertThat(context.getBean(CircuitRegistry.class).guard("pricing").state()).isEqualTo(CircuitState.OPEN);
        });
    }
}
