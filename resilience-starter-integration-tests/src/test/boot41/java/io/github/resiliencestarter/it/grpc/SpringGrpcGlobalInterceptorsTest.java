package io.github.resiliencestarter.it.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.testsupport.RealServers;
import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.grpc.client.GrpcChannelFactory;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Boot 4.1's own gRPC server and channel factory (Spring gRPC), nothing wired by hand: the
 * starter's interceptors are Spring gRPC's global ones, so a service it serves reads the key, the
 * trace id and the deadline of each call, and a channel its factory builds sends the budget.
 */
@SpringBootTest(classes = SpringGrpcGlobalInterceptorsTest.SpringGrpcApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"spring.grpc.server.port=0", "resilience.idempotent.store=redis"})
class SpringGrpcGlobalInterceptorsTest {

    private static final MethodDescriptor<String, String> PLACE = TextCalls.unary("test.SpringOrders", "Place");

    private static final MethodDescriptor<String, String> ECHO = TextCalls.unary("test.SpringOrders", "Echo");

    private static final Metadata.Key<String> IDEMPOTENCY_KEY = Metadata.Key.of("idempotency-key",
            Metadata.ASCII_STRING_MARSHALLER);

    private static final Metadata.Key<String> REPLAYED = Metadata.Key.of("idempotent-replayed",
            Metadata.ASCII_STRING_MARSHALLER);

    private static final AtomicInteger PORT = new AtomicInteger();

    @Autowired
    private Ledger ledger;

    @Autowired
    private GrpcChannelFactory channels;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
    }

    /** What the service did, kept apart from the proxied service bean. */
    public static class Ledger {

        final AtomicInteger placed = new AtomicInteger();

        /** "trace remainingMillis" per call the handler ran. */
        final List<String> seen = new CopyOnWriteArrayList<>();
    }

    /** The service's methods: a Spring bean, so its annotations apply. */
    public static class Orders {

        private final Ledger ledger;

        public Orders(Ledger ledger) {
            this.ledger = ledger;
        }

        @Idempotent
        public void place(String request, StreamObserver<String> answer) {
            ledger.seen.add(seen());
            answer.onNext("order " + ledger.placed.incrementAndGet() + " of " + request);
            answer.onCompleted();
        }

        public void echo(String request, StreamObserver<String> answer) {
            ledger.seen.add(seen());
            answer.onNext(request);
            answer.onCompleted();
        }

        private static String seen() {
            TraceContext context = TraceContextHolder.current();
            return context.traceId() + " " + (context.deadline() == null ? "none" : context.deadline().remainingMillis());
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class SpringGrpcApplication {

        @Bean
        Ledger ledger() {
            return new Ledger();
        }

        @Bean
        Orders orders(Ledger ledger) {
            return new Orders(ledger);
        }

        @Bean
        BindableService ordersService(Orders orders) {
            return () -> ServerServiceDefinition.builder("test.SpringOrders")
                    .addMethod(PLACE, ServerCalls.asyncUnaryCall(orders::place))
                    .addMethod(ECHO, ServerCalls.asyncUnaryCall(orders::echo)).build();
        }

        @Bean
        ApplicationListener<GrpcServerStartedEvent> grpcPort() {
            return started -> PORT.set(started.getPort());
        }
    }

    @Test
    void aServiceSpringGrpcServesReadsTheKeyTraceIdAndDeadline() throws InterruptedException {
        ManagedChannel plain = Grpc.newChannelBuilderForAddress("127.0.0.1", PORT.get(),
                InsecureChannelCredentials.create()).build();
        try {
            Metadata headers = new Metadata();
            headers.put(IDEMPOTENCY_KEY, UUID.randomUUID().toString());
            headers.put(Metadata.Key.of("x-trace-id", Metadata.ASCII_STRING_MARSHALLER), "spring-grpc-1");
            AtomicReference<Metadata> replayHeaders = new AtomicReference<>();
            Channel first = ClientInterceptors.intercept(plain, MetadataUtils.newAttachHeadersInterceptor(headers));
            Channel again = ClientInterceptors.intercept(plain, MetadataUtils.newAttachHeadersInterceptor(headers),
                    MetadataUtils.newCaptureMetadataInterceptor(replayHeaders, new AtomicReference<>()));
            int before = ledger.placed.get();
            ledger.seen.clear();

            String answer = ClientCalls.blockingUnaryCall(first, PLACE,
                    CallOptions.DEFAULT.withDeadlineAfter(2, TimeUnit.SECONDS), "2 lamps");
            String replay = ClientCalls.blockingUnaryCall(again, PLACE,
                    CallOptions.DEFAULT.withDeadlineAfter(2, TimeUnit.SECONDS), "2 lamps");

            assertThat(replay).isEqualTo(answer);
            assertThat(ledger.placed.get() - before).isEqualTo(1);
            assertThat(replayHeaders.get().get(REPLAYED)).isEqualTo("true");
            String[] seen = ledger.seen.get(0).split(" ");
            assertThat(seen[0]).isEqualTo("spring-grpc-1");
            assertThat(Long.parseLong(seen[1])).isPositive().isLessThanOrEqualTo(2_000);
        } finally {
            plain.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aChannelOfSpringGrpcsFactorySendsTheBudgetAndTraceId() {
        ManagedChannel channel = channels.createChannel("127.0.0.1:" + PORT.get());
        ledger.seen.clear();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("spring-grpc-2")
                .withDeadline(Deadline.after(Duration.ofSeconds(1))))) {
            assertThat(ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, "ping")).isEqualTo("ping");
        } finally {
            channel.shutdownNow();
        }

        String[] seen = ledger.seen.get(0).split(" ");
        assertThat(seen[0]).isEqualTo("spring-grpc-2");
        // the channel's call got the caller's budget less the margin as its gRPC deadline
        assertThat(seen[1]).isNotEqualTo("none");
        assertThat(Long.parseLong(seen[1])).isPositive().isLessThan(1_000);
    }
}
