package io.github.resiliencestarter.autoconfigure.slice;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Timeout;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * An application as slice tests see it: a controller with the annotations, and the application's
 * own catch-all exception advice (spring-petclinic-rest's shape), which renders anything it gets
 * as a 500 titled with the exception's class.
 */
@SpringBootConfiguration
public class SliceApplication {

    /** Executions of the idempotent endpoint. */
    static final AtomicInteger EXECUTIONS = new AtomicInteger();

    @RestController
    static class OrderController {

        @PostMapping("/slice/orders")
        @Idempotent
        public Map<String, Object> create(@RequestBody Map<String, Object> order) {
            return Map.of("order", order, "execution", EXECUTIONS.incrementAndGet());
        }

        @GetMapping("/slice/slow")
        @Timeout("100ms")
        public String slow() throws InterruptedException {
            Thread.sleep(2_000);
            return "late";
        }
    }

    @RestControllerAdvice
    static class CatchAllAdvice {

        @ExceptionHandler(Exception.class)
        ResponseEntity<ProblemDetail> any(Exception error) {
            ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.INTERNAL_SERVER_ERROR);
            problem.setTitle(error.getClass().getSimpleName());
            return ResponseEntity.internalServerError().body(problem);
        }
    }
}
