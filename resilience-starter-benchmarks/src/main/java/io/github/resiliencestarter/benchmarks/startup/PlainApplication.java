package io.github.resiliencestarter.benchmarks.startup;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The application without a resilience library: one controller. */
@SpringBootConfiguration
@EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
class PlainApplication {

    /** The controller every variant has (registered as a member of the configuration); here without annotations. */
    @RestController
    static class Orders {

        @GetMapping("/orders/{id}")
        public String find(String id) {
            return id;
        }

        @GetMapping("/orders/{id}/status")
        public String status(String id) {
            return "open";
        }
    }
}
