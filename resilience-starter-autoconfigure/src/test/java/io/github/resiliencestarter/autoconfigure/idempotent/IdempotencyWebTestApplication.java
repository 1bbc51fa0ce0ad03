package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.idempotent.ClientErrorHandling;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.math.BigDecimal;
import java.security.Principal;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** A web application with idempotent endpoints, run against each real store. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class IdempotencyWebTestApplication {

    /** Test header naming the authenticated user; a stand-in for an authentication filter. */
    static final String USER_HEADER = "X-Test-User";

    /** Business executions, by endpoint. */
    static final Map<String, AtomicInteger> EXECUTIONS = new java.util.concurrent.ConcurrentHashMap<>();

    static int executions(String endpoint) {
        return EXECUTIONS.computeIfAbsent(endpoint, e -> new AtomicInteger()).get();
    }

    static int execute(String endpoint) {
        return EXECUTIONS.computeIfAbsent(endpoint, e -> new AtomicInteger()).incrementAndGet();
    }

    /** Counted down when /i/slow has started; a test sets a fresh one before each use. */
    static volatile CountDownLatch slowStarted = new CountDownLatch(1);

    /** Lets /i/slow return; a test sets a fresh one before each use and counts it down. */
    static volatile CountDownLatch slowReleased = new CountDownLatch(1);

    @Bean
    FilterRegistrationBean<Filter> testAuthentication() {
        Filter filter = (request, response, chain) -> {
            String user = ((HttpServletRequest) request).getHeader(USER_HEADER);
            if (user == null) {
                chain.doFilter(request, response);
                return;
            }
            Principal principal = () -> user;
            chain.doFilter(new HttpServletRequestWrapper((HttpServletRequest) request) {
                @Override
                public Principal getUserPrincipal() {
                    return principal;
                }
            }, response);
        };
        return new FilterRegistrationBean<>(filter);
    }

    /** An order request. */
    public record OrderRequest(String orderNo, long userId, BigDecimal amount) {
    }

    /** An order result. */
    public record OrderResult(String orderNo, String status, BigDecimal amount, int execution) {
    }

    @RestController
    static class Endpoints {

        @PostMapping("/i/orders")
        @Idempotent(key = "#request.orderNo", name = "ORDER_CREATE", ttl = "30d")
        public OrderResult create(@RequestBody OrderRequest request) {
            int n = execute("orders");
            return new OrderResult(request.orderNo(), "CREATED", request.amount(), n);
        }

        @PostMapping("/i/header")
        @Idempotent
        public Map<String, Object> byHeader(@RequestBody Map<String, Object> body, Principal principal) {
            int n = execute("header");
            return Map.of("execution", n, "user", principal == null ? "anonymous" : principal.getName());
        }

        @PostMapping("/i/slow")
        @Idempotent(onInProgress = InProgressStrategy.REJECT)
        public Map<String, Object> slow(@RequestBody Map<String, Object> body) throws InterruptedException {
            int n = execute("slow");
            slowStarted.countDown();
            slowReleased.await(60, TimeUnit.SECONDS);
            return Map.of("execution", n);
        }

        @PostMapping("/i/entity")
        @Idempotent(key = "#request.orderNo")
        public ResponseEntity<OrderResult> entity(@RequestBody OrderRequest request) {
            int n = execute("entity");
            return ResponseEntity.status(201).header("Location", "/orders/" + request.orderNo())
                    .body(new OrderResult(request.orderNo(), "CREATED", request.amount(), n));
        }

        @PostMapping("/i/broken-key")
        @Idempotent(key = "#request.orderNo.substring(#request.orderNo.length() + 1)")
        public String brokenKey(@RequestBody OrderRequest request) {
            execute("broken-key");
            return "never";
        }

        @PostMapping("/i/attempt")
        @Idempotent
        public Map<String, Object> attempt(@RequestBody Map<String, Object> body,
                @RequestHeader(value = "X-Retry-Attempt", required = false) String attempt) {
            return Map.of("execution", execute("attempt"), "attempt", String.valueOf(attempt));
        }

        @PostMapping("/i/missing")
        @Idempotent
        public String missing(@RequestBody Map<String, Object> body) {
            execute("missing");
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no such order");
        }

        @PostMapping("/i/out-of-stock")
        @Idempotent
        public String outOfStock(@RequestBody Map<String, Object> body) {
            throw new OutOfStockException("sold out after " + execute("out-of-stock") + " call(s)");
        }

        @PostMapping("/i/conflict")
        @Idempotent
        public String conflict(@RequestBody Map<String, Object> body) {
            execute("conflict");
            throw new ResponseStatusException(HttpStatus.CONFLICT, "the order changed meanwhile");
        }

        @PostMapping("/i/unavailable")
        @Idempotent
        public String unavailable(@RequestBody Map<String, Object> body) {
            execute("unavailable");
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try later");
        }

        @PostMapping("/i/missing-released")
        @Idempotent(onClientError = ClientErrorHandling.RELEASE)
        public String missingReleased(@RequestBody Map<String, Object> body) {
            execute("missing-released");
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no such order");
        }

        @PostMapping("/i/null-key")
        @Idempotent(key = "#request.orderNo")
        public String nullKey(@RequestBody OrderRequest request) {
            execute("null-key");
            return "never";
        }
    }

    /** A controller interface as OpenAPI generators write it: the mapping and the header on the interface. */
    interface AttemptApi {

        @PostMapping("/i/attempt-api")
        Map<String, Object> attempt(@RequestBody Map<String, Object> body,
                @RequestHeader(value = "X-Retry-Attempt", required = false) String attempt);
    }

    @RestController
    static class AttemptController implements AttemptApi {

        @Override
        @Idempotent
        public Map<String, Object> attempt(Map<String, Object> body, String attempt) {
            return Map.of("execution", execute("attempt-api"), "attempt", String.valueOf(attempt));
        }
    }

    /** A business failure of the application's own, rendered by Spring from its annotation. */
    @ResponseStatus(HttpStatus.UNPROCESSABLE_ENTITY)
    public static class OutOfStockException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public OutOfStockException(String message) {
            super(message);
        }
    }
}
