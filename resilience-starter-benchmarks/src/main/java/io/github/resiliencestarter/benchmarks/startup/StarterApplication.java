package io.github.resiliencestarter.benchmarks.startup;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Retry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The application with this starter: one {@code @Retry} and one {@code @CircuitBreaker} method. */
@SpringBootConfiguration
@EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
class StarterApplication {

    /** The controller (registered as a member of the configuration), annotated. */
    @RestController
    static class Orders {

        @GetMapping("/orders/{id}")
        @Retry(idempotent = true)
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
