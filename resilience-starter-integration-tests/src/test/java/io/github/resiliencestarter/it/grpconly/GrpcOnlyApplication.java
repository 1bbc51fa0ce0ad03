package io.github.resiliencestarter.it.grpconly;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.it.grpc.TextCalls;
import io.github.resiliencestarter.spring.grpc.GrpcPrincipal;
import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A gRPC service as an application without Spring MVC, WebFlux or a servlet container writes one:
 * the starter on the class path, an {@code @Idempotent} and {@code @Timeout} service method on a
 * Netty server. Run in a JVM of its own whose class path has no web jars; it calls itself twice
 * with one key and prints what it saw, or fails.
 */
@SpringBootApplication
public class GrpcOnlyApplication {

    /** What the run prints when the duplicate was answered from the store and the method ran once. */
    public static final String PASSED = "grpc-only: ran once, replayed once";

    private static final MethodDescriptor<String, String> PLACE = TextCalls.unary("only.Orders", "Place");

    /** The service. */
    public static class Orders {

        private final AtomicInteger placed = new AtomicInteger();

        @Idempotent
        @Timeout("5s")
        public void place(String request, StreamObserver<String> answer) {
            answer.onNext("order " + placed.incrementAndGet() + " of " + request);
            answer.onCompleted();
        }

        public int placed() {
            return placed.get();
        }
    }

    @Bean
    Orders orders() {
        return new Orders();
    }

    @Bean
    GrpcPrincipal grpcPrincipal() {
        return call -> "grpc-caller";
    }

    public static void main(String[] args) throws Exception {
        if (org.springframework.util.ClassUtils.isPresent("org.springframework.web.context.request.RequestContextHolder",
                null) || org.springframework.util.ClassUtils.isPresent("jakarta.servlet.Servlet", null)) {
            throw new IllegalStateException("spring-web or the servlet API is on this class path: the run proves nothing");
        }
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(GrpcOnlyApplication.class)
                .web(WebApplicationType.NONE).run(args)) {
            Orders orders = context.getBean(Orders.class);
            ServerServiceDefinition service = ServerServiceDefinition.builder("only.Orders")
                    .addMethod(PLACE, ServerCalls.asyncUnaryCall(orders::place)).build();
            Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                    .addService(ServerInterceptors.intercept(service,
                            context.getBean(TraceContextServerInterceptor.class)))
                    .build().start();
            ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(),
                    InsecureChannelCredentials.create()).build();
            try {
                Metadata headers = new Metadata();
                headers.put(Metadata.Key.of("idempotency-key", Metadata.ASCII_STRING_MARSHALLER), "only-1");
                String first = place(channel, headers);
                String second = place(channel, headers);
                if (!first.equals(second) || orders.placed() != 1) {
                    throw new IllegalStateException("expected one run and a replay: " + first + " / " + second
                            + ", runs " + orders.placed());
                }
                System.out.println(PASSED);
            } finally {
                channel.shutdownNow();
                server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    private static String place(ManagedChannel channel, Metadata headers) {
        return ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel,
                MetadataUtils.newAttachHeadersInterceptor(headers)), PLACE,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "tea");
    }
}
