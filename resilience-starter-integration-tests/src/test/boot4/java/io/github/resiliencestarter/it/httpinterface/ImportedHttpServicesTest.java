package io.github.resiliencestarter.it.httpinterface;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * Boot 4's own way to declare HTTP interface clients, {@code @ImportHttpServices} with a group
 * configured by {@code spring.http.serviceclient.<group>.*}: the clients Boot builds carry the
 * propagation headers, and {@code @Retry} on the interface's methods works.
 */
@SpringBootTest(classes = ImportedHttpServicesTest.ClientApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {"resilience.retry.delay=5ms",
            "resilience.retry.max-delay=10ms", "resilience.retry.budget-enabled=false"})
class ImportedHttpServicesTest {

    @Autowired
    private StockApi stock;

    @Autowired
    private AnnotatedMethodValidator validator;

    @DynamicPropertySource
    static void server(DynamicPropertyRegistry registry) {
        registry.add("spring.http.serviceclient.stock.base-url", StockServer::url);
    }

    @BeforeEach
    void reset() {
        StockServer.REQUESTS.clear();
    }

    /** The client application: Boot makes the client from the group's settings. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @ImportHttpServices(group = "stock", types = StockApi.class)
    static class ClientApplication {
    }

    @Test
    void theClientsBootBuildsCarryTheTraceIdAndTheBudget() {
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("imported-trace")
                .withDeadline(Deadline.after(Duration.ofSeconds(10))))) {
            assertThat(stock.stock("ok")).isEqualTo("stock of ok");
        }

        assertThat(StockServer.REQUESTS).singleElement().satisfies(request -> {
            assertThat(request).containsEntry("trace", "imported-trace");
            assertThat(Long.parseLong(request.get("budget"))).isPositive().isLessThanOrEqualTo(10_000);
        });
    }

    @Test
    void retryOnTheInterfaceRepeatsA503AndTheAnnotationsAreNotReportedInactive() {
        StockServer.FLAKY_LEFT.set(2);

        assertThat(stock.stock("flaky")).isEqualTo("stock of flaky");

        assertThat(StockServer.REQUESTS).extracting(request -> request.get("attempt")).containsExactly("1", "2", "3");
        assertThat(validator.inactive()).isEmpty();
    }
}
