package io.github.resiliencestarter.webflux.slice;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Timeout;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** A reactive application as {@code @WebFluxTest} sees it: a controller with the annotations. */
@SpringBootConfiguration
public class ReactiveSliceApplication {

    /** Executions of the idempotent endpoint. */
    static final AtomicInteger EXECUTIONS = new AtomicInteger();

    @RestController
    static class Orders {

        @PostMapping("/slice/orders")
        @Idempotent
        public Mono<Map<String, Object>> create(@RequestBody Map<String, Object> order) {
            return Mono.fromSupplier(() -> Map.of("order", order, "execution", EXECUTIONS.incrementAndGet()));
        }

        @GetMapping("/slice/never")
        @Timeout("100ms")
        public Mono<String> never() {
            return Mono.<String>never().timeout(Duration.ofSeconds(30));
        }
    }

    /** The slice brings Spring Security's reactive chain: open it, as the application's tests would. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebFluxSecurity
    static class OpenSecurity {

        @Bean
        SecurityWebFilterChain open(ServerHttpSecurity http) {
            return http.csrf(ServerHttpSecurity.CsrfSpec::disable)
                    .authorizeExchange(exchanges -> exchanges.anyExchange().permitAll()).build();
        }
    }
}
