package io.github.resiliencestarter.autoconfigure.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.observability.ObservabilityAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.chaos.FaultInjector;
import io.github.resiliencestarter.spring.chaos.ChaosAdvisor;
import io.github.resiliencestarter.spring.chaos.ChaosClientInterceptor;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Fault injection for rehearsals (docs/chaos.md): off by default, refused in production profiles,
 * injected into annotated methods inside every policy and into outbound requests, by header only
 * for allowed callers, and counted.
 */
class ChaosAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    RetryAutoConfiguration.class, ObservabilityAutoConfiguration.class, ChaosAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("resilience.retry.delay=1ms", "resilience.retry.max-delay=2ms")
            .withBean(Inventory.class);

    static class Inventory {

        private final AtomicInteger calls = new AtomicInteger();

        int calls() {
            return calls.get();
        }

        @Retry(maxAttempts = 3, idempotent = true)
        public String reserve() throws ConnectException {
            calls.incrementAndGet();
            return "reserved";
        }

        @Timeout(value = "100ms", mode = TimeoutMode.INTERRUPT)
        public String check() {
            calls.incrementAndGet();
            return "checked";
        }
    }

    private static double injected(ApplicationContext context, String fault, String kind) {
        Counter counter = context.getBean(MeterRegistry.class).find("resilience.chaos.injected").tag("fault", fault)
                .tag("kind", kind).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void offByDefaultNothingIsDefinedAndNothingIsInjected() {
        runner.withPropertyValues("resilience.chaos.faults.refused.method=Inventory.reserve",
                "resilience.chaos.faults.refused.exception=java.net.ConnectException").run(context -> {
                    assertThat(context).doesNotHaveBean(FaultInjector.class).doesNotHaveBean(ChaosAdvisor.class);
                    assertThat(context.getBean(Inventory.class).reserve()).isEqualTo("reserved");
                });
    }

    @Test
    void switchedOnInAProductionProfileTheStartFailsNamingTheProfileAndTheWayOut() {
        runner.withPropertyValues("spring.profiles.active=prod", "resilience.chaos.enabled=true").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("profile [prod]")
                        .hasStackTraceContaining("resilience.chaos.allow-in-refused-profiles=true"));
        runner.withPropertyValues("spring.profiles.active=prod", "resilience.chaos.enabled=true",
                "resilience.chaos.allow-in-refused-profiles=true").run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(FaultInjector.class));
    }

    @Test
    void anInjectedExceptionIsRetriedAsTheMethodsOwnAndEveryInjectionIsCounted() {
        runner.withPropertyValues("resilience.chaos.enabled=true",
                "resilience.chaos.faults.refused.method=Inventory.reserve",
                "resilience.chaos.faults.refused.exception=java.net.ConnectException").run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);

                    assertThatThrownBy(inventory::reserve).isInstanceOf(ConnectException.class)
                            .hasMessage("injected by resilience.chaos.faults.refused");

                    assertThat(inventory.calls()).as("the method never ran").isZero();
                    assertThat(injected(context, "refused", "exception")).as("one per attempt").isEqualTo(3);
                });
    }

    @Test
    void anInjectedLatencyIsCutByTheMethodsTimeout() {
        runner.withPropertyValues("resilience.chaos.enabled=true",
                "resilience.chaos.faults.slow.method=Inventory.check",
                "resilience.chaos.faults.slow.latency=30s").run(context -> {
                    long started = System.nanoTime();
                    assertThatThrownBy(context.getBean(Inventory.class)::check)
                            .isInstanceOf(DeadlineExceededException.class);
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
                    assertThat(injected(context, "slow", "latency")).isEqualTo(1);
                });
    }

    @Test
    void aHeaderTriggeredFaultNeedsTheHeaderAndAnAllowedCaller() {
        ApplicationContextRunner headerFault = runner.withPropertyValues("resilience.chaos.enabled=true",
                "resilience.chaos.faults.asked.method=Inventory.reserve",
                "resilience.chaos.faults.asked.exception=java.net.ConnectException",
                "resilience.chaos.faults.asked.trigger=header");
        headerFault.withPropertyValues("resilience.chaos.header.allowed-callers=anonymous").run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            assertThat(inRequest(null, inventory::reserve)).as("no header").isEqualTo("reserved");
            assertThat(inRequest("asked", inventory::reserve)).as("asked for").isInstanceOf(ConnectException.class);
        });
        headerFault.run(context -> assertThat(inRequest("asked", context.getBean(Inventory.class)::reserve))
                .as("no caller allowed").isEqualTo("reserved"));
    }

    /** Runs a call inside a servlet request carrying the chaos header; returns its result or failure. */
    private static Object inRequest(String header, ThrowingCall call) {
        MockHttpServletRequest request = new MockHttpServletRequest();
        if (header != null) {
            request.addHeader("X-Resilience-Chaos", header);
        }
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
        try {
            return call.call();
        } catch (Throwable failure) {
            return failure;
        } finally {
            RequestContextHolder.resetRequestAttributes();
        }
    }

    @FunctionalInterface
    interface ThrowingCall {
        Object call() throws Throwable;
    }

    @Test
    void anOutboundFaultAnswersItsStatusWithoutSendingTheRequest() throws Exception {
        AtomicInteger received = new AtomicInteger();
        HttpServer downstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        downstream.createContext("/", exchange -> {
            received.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        downstream.start();
        int port = downstream.getAddress().getPort();
        try {
            runner.withPropertyValues("resilience.chaos.enabled=true",
                    "resilience.chaos.faults.down.client=127.0.0.1:" + port, "resilience.chaos.faults.down.status=503")
                    .run(context -> {
                        RestClient client = RestClient.builder()
                                .requestInterceptor(context.getBean(ChaosClientInterceptor.class)).build();

                        assertThatThrownBy(() -> client.get().uri("http://127.0.0.1:" + port + "/stock").retrieve()
                                .toBodilessEntity()).isInstanceOf(HttpServerErrorException.class)
                                .hasMessageContaining("503");

                        assertThat(received).as("never sent").hasValue(0);
                        assertThat(injected(context, "down", "status")).isEqualTo(1);
                    });
        } finally {
            downstream.stop(0);
        }
    }

    @Test
    void aFaultThatCannotBeInjectedFailsTheStartNamingTheProperty() {
        runner.withPropertyValues("resilience.chaos.enabled=true", "resilience.chaos.faults.bad.method=A.b",
                "resilience.chaos.faults.bad.exception=java.net.ConnectException",
                "resilience.chaos.faults.bad.share=150").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("faults[bad].share")
                        .hasStackTraceContaining("between 0 and 100"));
    }
}
