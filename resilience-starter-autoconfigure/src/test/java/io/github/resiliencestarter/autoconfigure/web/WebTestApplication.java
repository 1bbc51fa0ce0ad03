package io.github.resiliencestarter.autoconfigure.web;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.retry.RetryableException;
import jakarta.servlet.Filter;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.context.request.RequestContextHolder;

/** A tiny web application with the starter on its classpath, for end-to-end tests over real HTTP. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class WebTestApplication {

    /** MDC trace id seen by an outer filter after the chain returned; must be null. */
    static final AtomicReference<String> MDC_AFTER_REQUEST = new AtomicReference<>("unset");

    @Bean
    FilterRegistrationBean<Filter> mdcProbe() {
        Filter probe = (request, response, chain) -> {
            chain.doFilter(request, response);
            MDC_AFTER_REQUEST.set(MDC.get(TraceContextHolder.MDC_TRACE_ID));
        };
        FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(probe);
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Calls this same server over HTTP through a Boot-built RestClient, so the outbound interceptor applies. */
    @RestController
    static class PropagationController {

        /** X-Retry-Attempt values the flaky endpoint saw, in order. */
        static final List<String> ATTEMPT_HEADERS = new CopyOnWriteArrayList<>();

        /** Requests that reached the counting endpoint. */
        static final AtomicInteger COUNTED = new AtomicInteger();

        private final RestClient client;

        private final Environment environment;

        PropagationController(RestClient.Builder builder, Environment environment) {
            this.client = builder.build();
            this.environment = environment;
        }

        private String self(String path) {
            return "http://127.0.0.1:" + environment.getProperty("local.server.port") + path;
        }

        @GetMapping("/p/flaky")
        public ResponseEntity<String> flaky(@RequestHeader(name = ResilienceHeaders.RETRY_ATTEMPT, required = false)
                String attempt) {
            ATTEMPT_HEADERS.add(String.valueOf(attempt));
            return ATTEMPT_HEADERS.size() < 3 ? ResponseEntity.status(503).body("busy") : ResponseEntity.ok("ok");
        }

        @GetMapping("/p/retrying")
        @Retry(delay = "5ms", maxDelay = "10ms")
        public String retrying() {
            return client.get().uri(self("/p/flaky")).retrieve().body(String.class);
        }

        /** Downstream attempts of /p/exhausted. */
        static final AtomicInteger EXHAUSTED_ATTEMPTS = new AtomicInteger();

        /** Upstream attempts of /p/upstream-of-exhausted. */
        static final AtomicInteger UPSTREAM_ATTEMPTS = new AtomicInteger();

        @GetMapping("/p/exhausted")
        @Retry(delay = "5ms", maxDelay = "10ms")
        public String exhausted() {
            EXHAUSTED_ATTEMPTS.incrementAndGet();
            throw new RetryableException("DOWN", "the database behind this service is down");
        }

        @GetMapping("/p/upstream-of-exhausted")
        @Retry(delay = "5ms", maxDelay = "10ms")
        public String upstreamOfExhausted() {
            UPSTREAM_ATTEMPTS.incrementAndGet();
            return client.get().uri(self("/p/exhausted")).retrieve().body(String.class);
        }

        /** Rows the ghost downstream wrote. */
        static final AtomicInteger GHOST_WRITES = new AtomicInteger();

        /** Rows it wrote more than 50 ms after its deadline: work nobody waited for. */
        static final AtomicInteger GHOST_WRITES_AFTER_DEADLINE = new AtomicInteger();

        @GetMapping("/p/ghost-downstream")
        @Timeout("10s")
        public String ghostDownstream() throws InterruptedException {
            io.github.resiliencestarter.context.Deadline deadline = TraceContextHolder.current().deadline();
            for (int i = 0; i < 150; i++) {
                if (deadline.remainingNanos() < -50_000_000L) {
                    GHOST_WRITES_AFTER_DEADLINE.incrementAndGet();
                }
                GHOST_WRITES.incrementAndGet();
                Thread.sleep(20);
            }
            return "wrote 150 rows";
        }

        @GetMapping("/p/ghost-upstream")
        @Timeout("500ms")
        public String ghostUpstream() {
            return client.get().uri(self("/p/ghost-downstream")).retrieve().body(String.class);
        }

        @GetMapping("/p/count")
        public Map<String, Object> count(@RequestHeader HttpHeaders headers) {
            COUNTED.incrementAndGet();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("budget", headers.getFirst(ResilienceHeaders.TIMEOUT_BUDGET_MS));
            body.put("traceId", headers.getFirst(ResilienceHeaders.TRACE_ID));
            body.put("remainingMs", TraceContextHolder.current().deadline() != null
                    ? TraceContextHolder.current().deadline().remainingMillis() : -1);
            return body;
        }

        @GetMapping("/p/call-count")
        @Timeout("2s")
        public Map<String, Object> callCount(@RequestParam(defaultValue = "0") long sleepFirstMs)
                throws InterruptedException {
            Thread.sleep(sleepFirstMs);
            Map<String, Object> downstream = client.get().uri(self("/p/count")).retrieve()
                    .body(new ParameterizedTypeReference<>() { });
            Map<String, Object> body = new LinkedHashMap<>(downstream);
            body.put("upstreamRemainingMs", TraceContextHolder.current().deadline().remainingMillis());
            return body;
        }
    }

    /** Registered as a member component of the application class. */
    @RestController
    static class TestController {

        private static final Logger log = LoggerFactory.getLogger(TestController.class);

        /** Handler invocations; static because the controller bean is a proxy. */
        static final AtomicInteger HANDLER_CALLS = new AtomicInteger();

        @GetMapping("/t/slow")
        @Timeout("200ms")
        public Map<String, Object> slow(@RequestParam long ms) throws InterruptedException {
            HANDLER_CALLS.incrementAndGet();
            log.info("slow call started");
            Thread.sleep(ms);
            log.info("slow call finished");
            return Map.of("slept", ms);
        }

        /** A request body with constraints. */
        record Item(@NotBlank String name, @Positive int quantity) {
        }

        @PostMapping("/t/items")
        public Item create(@Valid @RequestBody Item item) {
            HANDLER_CALLS.incrementAndGet();
            return item;
        }

        @GetMapping("/t/boom")
        public String boom() {
            HANDLER_CALLS.incrementAndGet();
            throw new IllegalStateException("a bug no handler answers");
        }

        /** Counted down when /t/hold has started; a test sets a fresh one before each use. */
        static volatile CountDownLatch holdStarted = new CountDownLatch(1);

        /** Lets /t/hold return; a test sets a fresh one before each use and counts it down. */
        static volatile CountDownLatch holdReleased = new CountDownLatch(1);

        /** Keeps its timeout worker busy until the test releases it, ignoring its timeout's interrupt. */
        @GetMapping("/t/hold")
        @Timeout("200ms")
        public String hold() {
            HANDLER_CALLS.incrementAndGet();
            holdStarted.countDown();
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            boolean released = false;
            while (!released && System.nanoTime() < giveUp) {
                try {
                    released = holdReleased.await(1, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    // the timeout's interrupt: the worker stays occupied, which is the point
                }
            }
            return "released";
        }

        @GetMapping("/t/context")
        public Map<String, Object> context(@RequestHeader Map<String, String> headers) {
            HANDLER_CALLS.incrementAndGet();
            TraceContext context = TraceContextHolder.current();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("traceId", context.traceId());
            body.put("mdcTraceId", MDC.get(TraceContextHolder.MDC_TRACE_ID));
            body.put("remainingMs", context.deadline() != null ? context.deadline().remainingMillis() : -1);
            return body;
        }

        @GetMapping("/t/worker")
        @Timeout("1s")
        public Map<String, Object> worker() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("thread", Thread.currentThread().getName());
            body.put("traceId", TraceContextHolder.current().traceId());
            body.put("mdcTraceId", MDC.get(TraceContextHolder.MDC_TRACE_ID));
            body.put("requestAttributes", RequestContextHolder.getRequestAttributes() != null);
            return body;
        }

        /** Calls /t/context over HTTP, passing down the remaining budget by hand. */
        @GetMapping("/t/upstream")
        @Timeout("10s")
        public Map<String, Object> upstream(@RequestParam int port) {
            TraceContext context = TraceContextHolder.current();
            long sent = context.deadline().remainingMillis();
            Map<String, Object> downstream = RestClient.create().get()
                    .uri("http://127.0.0.1:" + port + "/t/context")
                    .header(ResilienceHeaders.TRACE_ID, context.traceId())
                    .header(ResilienceHeaders.TIMEOUT_BUDGET_MS, Long.toString(sent))
                    .retrieve().body(new ParameterizedTypeReference<>() { });
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("traceId", context.traceId());
            body.put("sentBudgetMs", sent);
            body.put("downstream", downstream);
            return body;
        }
    }
}
