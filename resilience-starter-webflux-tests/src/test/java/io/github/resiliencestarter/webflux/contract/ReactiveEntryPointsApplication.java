package io.github.resiliencestarter.webflux.contract;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.contract.ContractProcess;
import io.github.resiliencestarter.testsupport.contract.ContractWork;
import io.github.resiliencestarter.testsupport.contract.HttpEntryPoint;
import io.github.resiliencestarter.testsupport.contract.TransientWorkFailure;
import io.github.resiliencestarter.testsupport.contract.WorkResult;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Two reactive entry points in one application behind Spring Security's HTTP Basic: an
 * {@code @Idempotent} WebFlux handler at {@code /contract}, and a gateway route at {@code /gw/**}
 * with the {@code IdempotencyKey} filter, in front of a plain HTTP service. Both run
 * {@link ContractWork}; a web filter ahead of everything tells it of each keyed request.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ReactiveEntryPointsApplication.ContractController.class)
public class ReactiveEntryPointsApplication {

    /** The service behind the gateway route: not idempotent itself, the gateway is. */
    static final HttpServer UPSTREAM = upstream();

    /**
     * The application in a second process of its own ({@link ContractProcess}): both entry points
     * on its one port, announced.
     *
     * @param args Spring Boot arguments
     */
    public static void main(String[] args) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(ReactiveEntryPointsApplication.class)
                .properties(properties()).properties("server.port=0").run(args);
        int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        ContractProcess.announce("webflux", port);
        ContractProcess.announce("gateway", port);
    }

    /**
     * What the application runs with, in the test and in a second process alike: the Redis store,
     * the gateway's body limit, and the route to {@link #UPSTREAM} through the {@code IdempotencyKey}
     * filter.
     *
     * @return the properties
     */
    static Map<String, Object> properties() {
        String route = "spring.cloud.gateway.server.webflux.routes[0].";
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.main.web-application-type", "reactive");
        properties.put("resilience.idempotent.store", "redis");
        properties.put("resilience.idempotent.max-request-bytes", 65536);
        properties.put("spring.data.redis.url", RealServers.redisUrl());
        properties.put(route + "id", "contract");
        properties.put(route + "uri", "http://127.0.0.1:" + UPSTREAM.getAddress().getPort());
        properties.put(route + "predicates[0]", "Path=/gw/**");
        properties.put(route + "filters[0]", "IdempotencyKey");
        return properties;
    }

    @Bean
    SecurityWebFilterChain contractSecurity(ServerHttpSecurity http) {
        return http.csrf(ServerHttpSecurity.CsrfSpec::disable).httpBasic(Customizer.withDefaults())
                .authorizeExchange(exchanges -> exchanges.anyExchange().authenticated()).build();
    }

    @Bean
    MapReactiveUserDetailsService callers() {
        return new MapReactiveUserDetailsService(caller("alice"), caller("bob"));
    }

    private static org.springframework.security.core.userdetails.UserDetails caller(String name) {
        return User.withUsername(name).password("{noop}" + HttpEntryPoint.PASSWORD).roles("USER").build();
    }

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    WebFilter arrivals() {
        return (exchange, chain) -> {
            String key = exchange.getRequest().getHeaders().getFirst("Idempotency-Key");
            if (key != null) {
                ContractWork.arrived(key);
            }
            return chain.filter(exchange);
        };
    }

    /** The WebFlux entry point. */
    @RestController
    static class ContractController {

        @PostMapping("/contract")
        @Idempotent(name = "CONTRACT_WEBFLUX")
        Mono<ResponseEntity<String>> perform(@RequestBody String payload,
                @RequestHeader("Idempotency-Key") String key) {
            // JDBC and the hold are blocking: off the event loop, as an application does it
            return Mono.fromCallable(() -> ContractWork.perform("webflux", key, payload))
                    .subscribeOn(Schedulers.boundedElastic())
                    .map(result -> ResponseEntity.status(result.status()).header("Location", result.location())
                            .contentType(MediaType.APPLICATION_JSON).body(result.body()))
                    .onErrorMap(TransientWorkFailure.class,
                            failure -> new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again"));
        }
    }

    private static HttpServer upstream() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(Executors.newFixedThreadPool(8));
            server.createContext("/gw", ReactiveEntryPointsApplication::upstreamWork);
            server.start();
            return server;
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static void upstreamWork(HttpExchange exchange) throws IOException {
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        String payload = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        int status;
        byte[] body;
        try {
            WorkResult result = ContractWork.perform("gateway", key, payload);
            status = result.status();
            body = result.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Location", result.location());
        } catch (TransientWorkFailure failure) {
            status = 503;
            body = "{\"error\":\"try again\"}".getBytes(StandardCharsets.UTF_8);
        }
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
