package io.github.resiliencestarter.it;

import com.alibaba.ttl.threadpool.TtlExecutors;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.timeout.TimeoutMode;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * A user's application as the README shows it, behind a real Spring Security filter chain (HTTP
 * Basic, users alice and bob), with JPA business writes and the three annotations on one endpoint.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableAsync
@Import({SecuredOrdersApplication.Orders.class, SecuredOrdersApplication.AsyncWork.class,
    SecuredOrdersApplication.Stock.class})
public class SecuredOrdersApplication {

    /** Executions of each endpoint's business code. */
    static final Map<String, AtomicInteger> EXECUTIONS = new java.util.concurrent.ConcurrentHashMap<>();

    static int executions(String endpoint) {
        return EXECUTIONS.computeIfAbsent(endpoint, e -> new AtomicInteger()).get();
    }

    private static int execute(String endpoint) {
        return EXECUTIONS.computeIfAbsent(endpoint, e -> new AtomicInteger()).incrementAndGet();
    }

    /** The user Spring Security says is calling, on whatever thread asks. */
    static String currentUser() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication != null ? authentication.getName() : "nobody";
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults()).csrf(csrf -> csrf.disable()).build();
    }

    @Bean
    InMemoryUserDetailsManager users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("alice").password("{noop}alice-password").roles("USER").build(),
                User.withUsername("bob").password("{noop}bob-password").roles("USER").build());
    }

    /** An order request. */
    public record OrderRequest(String orderNo, int quantity) {
    }

    /** What an order endpoint answers. */
    public record OrderView(String orderNo, String user, long id, int execution) {
    }

    /** A business refusal that is cached and replayed. */
    @ResponseStatus(HttpStatus.CONFLICT)
    public static class OutOfStockException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public OutOfStockException(String message) {
            super(message);
        }
    }

    @RestController
    static class Orders {

        private final PurchaseOrderRepository repository;

        private final AsyncWork async;

        private final Stock stock;

        private final ExecutorService plainExecutor = Executors.newSingleThreadExecutor();

        /**
         * The application's own pool for {@code /orders/pool} alone: its one thread is created by
         * the first call, inside that caller's request, so whatever a new thread inherits from the
         * thread that creates it, it inherits from that caller.
         */
        private final ExecutorService unsharedExecutor = Executors.newSingleThreadExecutor();

        /** The application's own pool, wrapped by TTL: it carries the trace context, nothing else. */
        private final ExecutorService ttlExecutor = TtlExecutors.getTtlExecutorService(
                Executors.newSingleThreadExecutor());

        Orders(PurchaseOrderRepository repository, AsyncWork async, Stock stock) {
            this.repository = repository;
            this.async = async;
            this.stock = stock;
        }

        private ResponseEntity<OrderView> created(String endpoint, String orderNo) {
            String user = currentUser();
            PurchaseOrder saved = repository.save(new PurchaseOrder(orderNo, user));
            OrderView view = new OrderView(orderNo, user, saved.getId(), execute(endpoint));
            return ResponseEntity.created(URI.create("/orders/" + saved.getId()))
                    .header(HttpHeaders.SET_COOKIE, "SESSION=" + user + "-session; HttpOnly")
                    .header("X-Internal-Note", user).body(view);
        }

        /** The README's stack: the default @Timeout mode (OFFLOAD), a SpEL key, retries, a transaction. */
        @PostMapping("/orders")
        @Timeout("10s")
        @Idempotent(key = "#request.orderNo", name = "SEC_ORDER")
        @Retry(name = "orders")
        @Transactional
        public ResponseEntity<OrderView> create(@RequestBody OrderRequest request) {
            return created("spel", request.orderNo());
        }

        /** The same stack keyed by the Idempotency-Key header. */
        @PostMapping("/orders/by-header")
        @Timeout("10s")
        @Idempotent(name = "SEC_HEADER")
        @Retry(name = "orders")
        @Transactional
        public ResponseEntity<OrderView> createByHeader(@RequestBody OrderRequest request) {
            return created("header", request.orderNo());
        }

        /** The same stack under INTERRUPT, on the request thread. */
        @PostMapping("/orders/interrupt")
        @Timeout(value = "10s", mode = TimeoutMode.INTERRUPT)
        @Idempotent(key = "#request.orderNo", name = "SEC_INTERRUPT")
        @Retry(name = "orders")
        @Transactional
        public ResponseEntity<OrderView> createInterrupt(@RequestBody OrderRequest request) {
            return created("interrupt", request.orderNo());
        }

        /** A cached business refusal: the replay repeats it, marked as a replay. */
        @PostMapping("/orders/reserve")
        @Timeout("10s")
        @Idempotent(key = "#request.orderNo", name = "SEC_RESERVE", cacheExceptions = OutOfStockException.class)
        public OrderView reserve(@RequestBody OrderRequest request) {
            execute("reserve");
            if (request.quantity() > 10) {
                throw new OutOfStockException("only 10 left");
            }
            return new OrderView(request.orderNo(), currentUser(), 0, executions("reserve"));
        }

        @GetMapping("/whoami/offload")
        @Timeout("10s")
        public String whoAmIOffloaded() {
            return currentUser() + " on " + Thread.currentThread().getName();
        }

        @GetMapping("/whoami/async")
        public String whoAmIAsync() throws Exception {
            return async.whoAmI().get();
        }

        /** Calls an idempotent method on the application's own pool, copying nothing onto its thread. */
        @PostMapping("/orders/pool")
        public OrderView createOnPlainPool(@RequestBody OrderRequest request) throws Throwable {
            return onPool(unsharedExecutor, request);
        }

        /** The same on a pool that carries the trace context (TTL), and with it the caller's scope. */
        @PostMapping("/orders/ttl-pool")
        public OrderView createOnTtlPool(@RequestBody OrderRequest request) throws Throwable {
            return onPool(ttlExecutor, request);
        }

        private OrderView onPool(ExecutorService pool, OrderRequest request) throws Throwable {
            try {
                return pool.submit(() -> stock.takeAnywhere(request)).get();
            } catch (ExecutionException ex) {
                throw ex.getCause();
            }
        }

        /** Calls an idempotent method from a thread the starter knows nothing about. */
        @PostMapping("/orders/elsewhere")
        public OrderView createElsewhere(@RequestBody OrderRequest request) throws Throwable {
            RequestAttributes attributes = RequestContextHolder.currentRequestAttributes();
            try {
                return plainExecutor.submit(() -> {
                    RequestContextHolder.setRequestAttributes(attributes);
                    try {
                        return stock.take(request);
                    } finally {
                        RequestContextHolder.resetRequestAttributes();
                    }
                }).get();
            } catch (ExecutionException ex) {
                throw ex.getCause();
            }
        }
    }

    static class Stock {

        @Idempotent(key = "#request.orderNo", name = "SEC_ELSEWHERE")
        public OrderView take(OrderRequest request) {
            return new OrderView(request.orderNo(), currentUser(), 0, execute("elsewhere"));
        }

        /** Keyed like the order; the thread it runs on may know nothing of the caller. */
        @Idempotent(key = "#request.orderNo", name = "SEC_POOL")
        public OrderView takeAnywhere(OrderRequest request) {
            return new OrderView(request.orderNo(), currentUser(), 0, execute("pool"));
        }
    }

    static class AsyncWork {

        @Async
        public CompletableFuture<String> whoAmI() {
            return CompletableFuture.completedFuture(currentUser() + " on " + Thread.currentThread().getName());
        }
    }
}
