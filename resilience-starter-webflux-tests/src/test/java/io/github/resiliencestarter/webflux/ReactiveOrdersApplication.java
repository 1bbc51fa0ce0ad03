package io.github.resiliencestarter.webflux;

import com.alibaba.fastjson2.JSON;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** A reactive order service on Netty, with Spring Security's reactive chain (HTTP basic, two users). */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ReactiveOrdersApplication.Orders.class, ReactiveOrdersApplication.Security.class})
public class ReactiveOrdersApplication {

    /** What a client orders. */
    public record OrderRequest(String item, int amount) {
    }

    /** What an order execution answers; {@code execution} tells executions apart. */
    public record Order(String item, int amount, int execution) {
    }

    @RestController
    static class Orders {

        static final AtomicInteger EXECUTIONS = new AtomicInteger();

        static volatile CountDownLatch gate = new CountDownLatch(0);

        static volatile CountDownLatch neverCancelled = new CountDownLatch(1);

        /** What the deliberately blocking handler below met, and on which kind of thread. */
        static final AtomicReference<Boolean> BLOCKED_ON_NON_BLOCKING_THREAD = new AtomicReference<>();

        static final AtomicReference<Throwable> BLOCKING_FAILURE = new AtomicReference<>();

        private static final int BLOCKING_PROBE_READS = 100;

        private final WebClient client;

        private final Environment environment;

        private final IdempotencyStore store;

        Orders(WebClient.Builder builder, Environment environment, IdempotencyStore store) {
            this.client = builder.build();
            this.environment = environment;
            this.store = store;
        }

        @PostMapping("/orders")
        @Idempotent
        @Timeout("10s")
        public Mono<Order> create(@RequestBody OrderRequest request) {
            return execute(request);
        }

        @PostMapping("/orders/reject")
        @Idempotent(onInProgress = InProgressStrategy.REJECT)
        public Mono<Order> createOrReject(@RequestBody OrderRequest request) {
            return execute(request);
        }

        private static Mono<Order> execute(OrderRequest request) {
            return Mono.fromCallable(() -> {
                int execution = EXECUTIONS.incrementAndGet();
                gate.await(10, TimeUnit.SECONDS);
                return new Order(request.item(), request.amount(), execution);
            }).subscribeOn(Schedulers.boundedElastic());
        }

        /**
         * The mistake BlockHound is there to catch: blocking store reads on the event loop. BlockHound
         * sees a wait, not a call: a reply that lands before the caller parks goes unseen, so the probe
         * reads until it is caught (one miss in a row is rare; a hundred mean nothing is watching).
         */
        @GetMapping("/blocks-the-event-loop")
        public Mono<String> blocksTheEventLoop() {
            return Mono.fromCallable(() -> {
                BLOCKED_ON_NON_BLOCKING_THREAD.set(Schedulers.isInNonBlockingThread());
                try {
                    for (int read = 0; read < BLOCKING_PROBE_READS; read++) {
                        store.find("blocking-probe-" + UUID.randomUUID());
                    }
                    return "never caught";
                } catch (Throwable failure) {
                    BLOCKING_FAILURE.set(failure);
                    throw failure;
                }
            });
        }

        @GetMapping("/never")
        @Timeout("300ms")
        public Mono<String> never() {
            CountDownLatch cancelled = neverCancelled;
            return Mono.<String>never().doOnCancel(cancelled::countDown);
        }

        @GetMapping("/calls-downstream")
        @Timeout("3s")
        public Mono<Map<String, Object>> callsDownstream() {
            return client.get().uri("http://127.0.0.1:" + environment.getProperty("local.server.port") + "/downstream")
                    .retrieve().bodyToMono(String.class).map(body -> new LinkedHashMap<>(JSON.parseObject(body)));
        }

        @GetMapping("/downstream")
        public Map<String, String> downstream(@RequestHeader HttpHeaders headers) {
            Map<String, String> seen = new LinkedHashMap<>();
            seen.put("budget", String.valueOf(headers.getFirst(ResilienceHeaders.TIMEOUT_BUDGET_MS)));
            seen.put("traceId", String.valueOf(headers.getFirst(ResilienceHeaders.TRACE_ID)));
            return seen;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebFluxSecurity
    static class Security {

        @Bean
        SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
            return http.csrf(ServerHttpSecurity.CsrfSpec::disable)
                    .authorizeExchange(exchanges -> exchanges.anyExchange().permitAll())
                    .httpBasic(Customizer.withDefaults()).build();
        }

        @Bean
        MapReactiveUserDetailsService users() {
            return new MapReactiveUserDetailsService(
                    User.withUsername("alice").password("{noop}alice-pw").roles("USER").build(),
                    User.withUsername("bob").password("{noop}bob-pw").roles("USER").build());
        }
    }
}
