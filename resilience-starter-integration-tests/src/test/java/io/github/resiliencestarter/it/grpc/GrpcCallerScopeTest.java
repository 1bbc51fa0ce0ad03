package io.github.resiliencestarter.it.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.spring.grpc.GrpcPrincipal;
import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import io.github.resiliencestarter.testsupport.RealServers;
import io.grpc.CallOptions;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A gRPC service that authenticates in its own {@code ServerInterceptor}, as most do: the caller's
 * name from a bearer token, kept in a {@code Context} key, never in Spring Security's holder. With
 * the application's {@link GrpcPrincipal}, {@code @Idempotent} keys are scoped by that caller: Bob
 * sending Alice's key with Alice's request runs his own call and never receives her answer, and a
 * keyed call whose caller the interceptor let through unnamed is refused, not run in a shared scope.
 */
@SpringBootTest(classes = GrpcCallerScopeTest.ScopedApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "resilience.idempotent.store=redis")
class GrpcCallerScopeTest {

    private static final MethodDescriptor<String, String> TRANSFER = TextCalls.unary("test.Payments", "Transfer");

    /** Where the application's authentication keeps the caller. */
    static final Context.Key<String> CALLER = Context.key("caller");

    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization",
            Metadata.ASCII_STRING_MARSHALLER);

    private static final Metadata.Key<String> IDEMPOTENCY_KEY = Metadata.Key.of("idempotency-key",
            Metadata.ASCII_STRING_MARSHALLER);

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
    }

    @Autowired
    private Payments payments;

    @Autowired
    private TraceContextServerInterceptor serverInterceptor;

    private Server server;

    private ManagedChannel channel;

    /** The service: each transfer it runs is numbered. */
    public static class Payments {

        private final AtomicInteger transfers = new AtomicInteger();

        /** Read through the proxy: its fields are the proxy's, not the service's. */
        public int transfers() {
            return transfers.get();
        }

        @Idempotent
        public void transfer(String request, StreamObserver<String> answer) {
            answer.onNext("transfer " + transfers.incrementAndGet() + " by " + CALLER.get() + ": " + request);
            answer.onCompleted();
        }
    }

    /** The application's own authentication: a bearer token names the caller; "Bearer guest" names none. */
    static class BearerAuthentication implements ServerInterceptor {

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                ServerCallHandler<Q, R> next) {
            String token = headers.get(AUTHORIZATION);
            if (token == null || !token.startsWith("Bearer ")) {
                call.close(Status.UNAUTHENTICATED, new Metadata());
                return new ServerCall.Listener<>() { };
            }
            String name = token.substring("Bearer ".length());
            Context context = name.equals("guest") ? Context.current() : Context.current().withValue(CALLER, name);
            return Contexts.interceptCall(context, call, headers, next);
        }
    }

    @SpringBootApplication
    static class ScopedApplication {

        @Bean
        Payments payments() {
            return new Payments();
        }

        @Bean
        GrpcPrincipal grpcPrincipal() {
            return CALLER::get;
        }
    }

    @BeforeEach
    void start() throws IOException {
        ServerServiceDefinition service = ServerServiceDefinition.builder("test.Payments")
                .addMethod(TRANSFER, ServerCalls.asyncUnaryCall(payments::transfer)).build();
        // the starter's interceptor outermost, the application's authentication inside it
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(service, new BearerAuthentication(), serverInterceptor))
                .build().start();
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(), InsecureChannelCredentials.create())
                .build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow();
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private String transfer(String caller, String key, String request) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + caller);
        headers.put(IDEMPOTENCY_KEY, key);
        return ClientCalls.blockingUnaryCall(io.grpc.ClientInterceptors.intercept(channel,
                MetadataUtils.newAttachHeadersInterceptor(headers)), TRANSFER,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), request);
    }

    @Test
    void IP5_aKeySentByAnotherCallerIsTheirOwnAndNeverReplaysTheFirstCallersAnswer() {
        String key = UUID.randomUUID().toString();

        String alice = transfer("alice", key, "100 to carol");
        String bob = transfer("bob", key, "100 to carol");
        String aliceAgain = transfer("alice", key, "100 to carol");

        assertThat(alice).contains("by alice");
        assertThat(bob).as("Bob's own call, not Alice's answer").contains("by bob").isNotEqualTo(alice);
        assertThat(aliceAgain).as("Alice's duplicate replays her answer").isEqualTo(alice);
    }

    @Test
    void aKeyedCallWhoseCallerTheApplicationCannotNameIsRefusedAndDoesNothing() {
        int before = payments.transfers();

        Throwable refused = catchThrowable(() -> transfer("guest", UUID.randomUUID().toString(), "1 to carol"));

        assertThat(refused).isInstanceOf(StatusRuntimeException.class);
        assertThat(((StatusRuntimeException) refused).getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(payments.transfers()).isEqualTo(before);
    }
}
