package io.github.resiliencestarter.it.httpinterface;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.timeout.ResilienceTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * HTTP interface clients ({@code @HttpExchange} methods, the proxy Spring makes for them) built on
 * the application's {@code RestClient.Builder} with {@code HttpServiceProxyFactory} (how a Boot 3.5
 * application declares them; Boot 4's {@code @ImportHttpServices}: {@code ImportedHttpServicesTest}),
 * against a real HTTP server on loopback ({@link StockServer}): every call
 * carries the trace id, the remaining budget and the attempt number; {@code @Retry} and
 * {@code @Timeout} on the interface's methods work; and the retry safety gate judges a method by
 * the HTTP method it sends.
 */
@SpringBootTest(classes = HttpInterfaceClientTest.ClientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {"resilience.retry.delay=5ms",
            "resilience.retry.max-delay=10ms", "resilience.retry.budget-enabled=false"})
class HttpInterfaceClientTest {

    @Autowired
    private StockApi stock;

    @Autowired
    private AnnotatedMethodValidator validator;

    @BeforeEach
    void reset() {
        StockServer.REQUESTS.clear();
    }

    private static <T> T client(RestClient.Builder builder, Class<T> type) {
        return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(builder.baseUrl(StockServer.url()).build()))
                .build().createClient(type);
    }

    /** The client application: the interface's proxy as a bean, made from Boot's builder. */
    @SpringBootApplication
    static class ClientApplication {

        @Bean
        StockApi stockApi(RestClient.Builder builder) {
            return client(builder, StockApi.class);
        }
    }

    @Test
    void theAnnotationsOnTheInterfaceAreNotReportedInactive() {
        // the proxy's own methods are final, but it only forwards to the interface the advisors match
        assertThat(validator.inactive()).isEmpty();
    }

    @Test
    void everyCallCarriesTheTraceIdAndTheRemainingBudget() {
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("iface-trace")
                .withDeadline(Deadline.after(Duration.ofSeconds(10))))) {
            assertThat(stock.stock("ok")).isEqualTo("stock of ok");
        }

        assertThat(StockServer.REQUESTS).singleElement().satisfies(request -> {
            assertThat(request).containsEntry("trace", "iface-trace");
            assertThat(Long.parseLong(request.get("budget"))).isPositive().isLessThanOrEqualTo(10_000);
        });
    }

    @Test
    void retryOnAnInterfaceMethodRepeatsA503AndNumbersTheAttempts() {
        StockServer.FLAKY_LEFT.set(2);

        assertThat(stock.stock("flaky")).isEqualTo("stock of flaky");

        assertThat(StockServer.REQUESTS).extracting(request -> request.get("attempt")).containsExactly("1", "2", "3");
    }

    @Test
    void timeoutOnAnInterfaceMethodCutsASlowServer() {
        long started = System.nanoTime();
        Throwable failure = catchThrowable(() -> stock.stockWithin300ms("slow"));

        assertThat(failure).isInstanceOf(ResilienceTimeoutException.class);
        // 300 ms limit against a server that answers after 10 s: generous bound, far below the answer
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        // the server may read the request after the client gave up on it (a busy machine)
        Eventually.waitUntil("the request at the server", () -> !StockServer.REQUESTS.isEmpty());
        assertThat(StockServer.REQUESTS).singleElement().satisfies(request ->
                assertThat(Long.parseLong(request.get("budget"))).isLessThanOrEqualTo(300));
    }

    @Test
    void R1_aRetriedPostExchangeMethodFailsTheStartAndNamesTheMethod() {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(PostClientApplication.class)
                .web(org.springframework.boot.WebApplicationType.NONE).run().close());

        assertThat(failure).hasStackTraceContaining("ReservationApi.reserve")
                .hasStackTraceContaining("may repeat a non-idempotent operation");
    }

    /** An application with a retried POST client. */
    @SpringBootApplication
    static class PostClientApplication {

        @Bean
        ReservationApi reservationApi(RestClient.Builder builder) {
            return client(builder, ReservationApi.class);
        }
    }
}
