package io.github.resiliencestarter.tracing;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.retry.RetryableException;
import io.micrometer.tracing.Tracer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * A Spring MVC application as production teams run it: Micrometer Tracing, Boot's auto-configured
 * {@code RestClient.Builder}, and the starter. Its handlers answer the trace ids each party sees
 * where the handler runs, and call a downstream service with the builder's client. No component
 * scan: the reactive application shares the package.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({TracedApplication.Orders.class, FinishedSpans.class})
public class TracedApplication {

    /** The handlers. */
    @RestController
    static class Orders {

        private final AtomicInteger retriedCalls = new AtomicInteger();

        private final RestClient client;

        private final TraceIds ids;

        Orders(RestClient.Builder builder, Tracer tracer) {
            this.client = builder.build();
            this.ids = new TraceIds(tracer);
        }

        /** No annotation: what adding the starter does to a traced request. */
        @GetMapping("/plain")
        Map<String, String> plain() {
            return ids.seen();
        }

        /** Under {@code @Timeout} (OFFLOAD, the default): the handler runs on a timeout worker. */
        @GetMapping("/offloaded")
        @Timeout("5s")
        Map<String, String> offloaded(@RequestParam String downstream) {
            Map<String, String> seen = ids.seen();
            client.get().uri(downstream).retrieve().toBodilessEntity();
            return seen;
        }

        /** Under {@code @Retry}: fails two attempts of three, answers on the third. */
        @GetMapping("/retried")
        @Retry(maxAttempts = 3, delay = "10ms")
        Map<String, String> retried() {
            if (retriedCalls.incrementAndGet() % 3 != 0) {
                throw new RetryableException("FLAKY", "not yet");
            }
            return ids.seen();
        }
    }
}
