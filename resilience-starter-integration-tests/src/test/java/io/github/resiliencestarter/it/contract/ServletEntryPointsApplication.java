package io.github.resiliencestarter.it.contract;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.it.grpc.TextCalls;
import io.github.resiliencestarter.spring.grpc.GrpcPrincipal;
import io.github.resiliencestarter.spring.grpc.InboundCall;
import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.contract.ContractProcess;
import io.github.resiliencestarter.testsupport.contract.ContractWork;
import io.github.resiliencestarter.testsupport.contract.HttpEntryPoint;
import io.github.resiliencestarter.testsupport.contract.TransientWorkFailure;
import io.github.resiliencestarter.testsupport.contract.WorkResult;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Two entry points in one servlet application: an {@code @Idempotent} Spring MVC handler at
 * {@code /contract} behind Spring Security's HTTP Basic, and an {@code @Idempotent} unary gRPC
 * method whose callers the application authenticates in its own interceptor (the same credentials,
 * in {@code authorization} metadata) and names with a {@link GrpcPrincipal}. Both run
 * {@link ContractWork}; a filter and an interceptor ahead of the starter tell it of each keyed
 * request.
 */
@SpringBootApplication
@Import({ServletEntryPointsApplication.ContractController.class, ServletEntryPointsApplication.GrpcWork.class})
public class ServletEntryPointsApplication {

    /** The store both entry points keep their keys in, in the test and in a second process. */
    static final String STORE = "resilience.idempotent.store=redis";

    /**
     * The application in a second process of its own ({@link ContractProcess}): both entry points
     * on ports of their own, announced.
     *
     * @param args Spring Boot arguments
     */
    public static void main(String[] args) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(ServletEntryPointsApplication.class)
                .properties(STORE, "spring.data.redis.url=" + RealServers.redisUrl(), "server.port=0").run(args);
        ContractProcess.announce("servlet", context.getEnvironment().getRequiredProperty("local.server.port",
                Integer.class));
        ContractProcess.announce("grpc", context.getBean(Server.class).getPort());
    }

    /** The gRPC method. */
    static final MethodDescriptor<String, String> PERFORM = TextCalls.unary("contract.Work", "Perform");

    /** Where the application's gRPC authentication keeps the caller. */
    static final Context.Key<String> CALLER = Context.key("contract-caller");

    @Bean
    SecurityFilterChain contractSecurity(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults()).csrf(csrf -> csrf.disable()).build();
    }

    @Bean
    InMemoryUserDetailsManager callers() {
        return new InMemoryUserDetailsManager(caller("alice"), caller("bob"));
    }

    private static org.springframework.security.core.userdetails.UserDetails caller(String name) {
        return User.withUsername(name).password("{noop}" + HttpEntryPoint.PASSWORD).roles("USER").build();
    }

    @Bean
    FilterRegistrationBean<Filter> arrivals() {
        FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
            String key = ((HttpServletRequest) request).getHeader("Idempotency-Key");
            if (key != null) {
                ContractWork.arrived(key);
            }
            chain.doFilter(request, response);
        });
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** The gRPC server: arrivals outermost, then the starter, then the application's authentication. */
    @Bean(destroyMethod = "shutdownNow")
    Server contractGrpcServer(GrpcWork work, TraceContextServerInterceptor starter) throws IOException {
        ServerServiceDefinition service = ServerServiceDefinition.builder("contract.Work")
                .addMethod(PERFORM, ServerCalls.asyncUnaryCall(work::perform)).build();
        return Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(service, basicAuthentication(), starter, arrivalsOfCalls()))
                .build().start();
    }

    @Bean
    GrpcPrincipal grpcPrincipal() {
        return CALLER::get;
    }

    /** The application's own gRPC authentication: the same HTTP Basic credentials, in metadata. */
    static ServerInterceptor basicAuthentication() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                    ServerCallHandler<Q, R> next) {
                String authorization = headers.get(GrpcEntryPoint.AUTHORIZATION);
                String[] credentials = authorization == null || !authorization.startsWith("Basic ") ? new String[0]
                        : new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8)
                                .split(":", 2);
                if (credentials.length != 2 || !HttpEntryPoint.PASSWORD.equals(credentials[1])) {
                    call.close(Status.UNAUTHENTICATED, new Metadata());
                    return new ServerCall.Listener<>() { };
                }
                return Contexts.interceptCall(Context.current().withValue(CALLER, credentials[0]), call, headers, next);
            }
        };
    }

    /** Tells the contract of each keyed call, before the starter sees it. */
    static ServerInterceptor arrivalsOfCalls() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                    ServerCallHandler<Q, R> next) {
                String key = headers.get(GrpcEntryPoint.KEY);
                if (key != null) {
                    ContractWork.arrived(key);
                }
                return next.startCall(call, headers);
            }
        };
    }

    /** The Spring MVC entry point. */
    @RestController
    static class ContractController {

        @PostMapping("/contract")
        @Idempotent(name = "CONTRACT_SERVLET")
        ResponseEntity<String> perform(@RequestBody String payload, @RequestHeader("Idempotency-Key") String key) {
            WorkResult result;
            try {
                result = ContractWork.perform("servlet", key, payload);
            } catch (TransientWorkFailure failure) {
                throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "try again");
            }
            return ResponseEntity.status(result.status()).header("Location", result.location())
                    .contentType(MediaType.APPLICATION_JSON).body(result.body());
        }
    }

    /** The gRPC entry point's method, on a Spring bean. */
    public static class GrpcWork {

        @Idempotent(name = "CONTRACT_GRPC")
        public void perform(String payload, StreamObserver<String> answer) {
            String key = InboundCall.current().headers("idempotency-key").get(0);
            try {
                answer.onNext(ContractWork.perform("grpc", key, payload).body());
                answer.onCompleted();
            } catch (TransientWorkFailure failure) {
                answer.onError(Status.UNAVAILABLE.withDescription("try again").asRuntimeException());
            }
        }
    }
}
