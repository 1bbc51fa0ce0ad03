package io.github.resiliencestarter.benchmarks.handwritten;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application the comparison drives; its store and servers come from the command line. */
@SpringBootApplication
public class ComparisonApplication {

    /**
     * Starts it.
     *
     * @param args Spring Boot arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(ComparisonApplication.class, args);
    }
}
