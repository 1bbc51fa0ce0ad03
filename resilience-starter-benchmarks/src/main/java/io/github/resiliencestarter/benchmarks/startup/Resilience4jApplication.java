package io.github.resiliencestarter.benchmarks.startup;

import io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker;
import io.github.resilience4j.retry.annotation.Retry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application with Resilience4j's Boot starter: one retry and one circuit breaker, configured
 * by properties ({@link StartupPeers} passes them) and used by one method each.
 */
@SpringBootConfiguration
@EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
class Resilience4jApplication {

    /** The controller (registered as a member of the configuration), annotated. */
    @RestController
    static class Orders {

        @GetMapping("/orders/{id}")
        @Retry(name = "orders")
        public String find(String id) {
            return id;
        }

        @GetMapping("/orders/{id}/status")
        @CircuitBreaker(name = "orders")
        public String status(String id) {
            return "open";
        }
    }
}
