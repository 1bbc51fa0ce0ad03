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
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * The same application on Spring WebFlux: the handlers answer {@code Mono}s, the downstream call
 * goes through Boot's auto-configured {@code WebClient.Builder}. Both web stacks are on the class
 * path, so its tests ask for this one ({@code spring.main.web-application-type=reactive}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ReactiveTracedApplication.Orders.class, FinishedSpans.class})
public class ReactiveTracedApplication {

    /** The handlers. */
    @RestController
    static class Orders {

        private final AtomicInteger retriedCalls = new AtomicInteger();

        private final WebClient client;

        private final TraceIds ids;

        Orders(WebClient.Builder builder, Tracer tracer) {
            this.client = builder.build();
            this.ids = new TraceIds(tracer);
        }

        /** No annotation: what adding the starter does to a traced request. */
        @GetMapping("/plain")
        Mono<Map<String, String>> plain() {
            return Mono.fromSupplier(ids::seen);
        }

        /** Under {@code @Timeout}: the ids as the handler's operators see them, then a downstream call. */
        @GetMapping("/offloaded")
        @Timeout("5s")
        Mono<Map<String, String>> offloaded(@RequestParam String downstream) {
            return Mono.fromSupplier(ids::seen).flatMap(seen -> client.get().uri(downstream).retrieve()
                    .toBodilessEntity().thenReturn(seen));
        }

        /** Under {@code @Retry}: fails two attempts of three, answers on the third. */
        @GetMapping("/retried")
        @Retry(maxAttempts = 3, delay = "10ms")
        Mono<Map<String, String>> retried() {
            return Mono.fromSupplier(() -> {
                if (retriedCalls.incrementAndGet() % 3 != 0) {
                    throw new RetryableException("FLAKY", "not yet");
                }
                return ids.seen();
            });
        }
    }
}
