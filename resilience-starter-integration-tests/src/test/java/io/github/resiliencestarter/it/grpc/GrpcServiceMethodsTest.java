package io.github.resiliencestarter.it.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.StringValue;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import io.github.resiliencestarter.testsupport.RealServers;
import io.grpc.CallOptions;
import io.grpc.Channel;
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
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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
 * {@code @Idempotent}, {@code @Retry} and {@code @Timeout} on unary gRPC service methods (a
 * {@code StreamObserver} answer), the service a Spring bean served by a real Netty server on
 * loopback, protobuf messages in and out, keys in the Redis store: the key comes from the
 * {@code idempotency-key} metadata entry, duplicates run once and are answered from the store with
 * {@code idempotent-replayed: true}, and the starter's failures arrive as gRPC statuses.
 */
@SpringBootTest(classes = GrpcServiceMethodsTest.GrpcServiceApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {"resilience.idempotent.store=redis",
            "resilience.retry.delay=5ms", "resilience.retry.max-delay=10ms", "resilience.retry.budget-enabled=false"})
class GrpcServiceMethodsTest {

    private static final String SERVICE = "test.Orders";

    private static final MethodDescriptor<StringValue, StringValue> PLACE = unary("Place");

    private static final MethodDescriptor<StringValue, StringValue> RESERVE = unary("Reserve");

    private static final MethodDescriptor<StringValue, StringValue> QUOTE = unary("Quote");

    private static final MethodDescriptor<StringValue, StringValue> STALL = unary("Stall");

    private static final MethodDescriptor<StringValue, StringValue> STALL_WITH_FALLBACK = unary("StallWithFallback");

    private static final MethodDescriptor<StringValue, StringValue> SHIP = unary("Ship");

    private static final Metadata.Key<String> IDEMPOTENCY_KEY = Metadata.Key.of("idempotency-key",
            Metadata.ASCII_STRING_MARSHALLER);

    private static final Metadata.Key<String> REPLAYED = Metadata.Key.of("idempotent-replayed",
            Metadata.ASCII_STRING_MARSHALLER);

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
    }

    @Autowired
    private OrdersService orders;

    @Autowired
    private Effects effects;

    @Autowired
    private TraceContextServerInterceptor serverInterceptor;

    private Server server;

    private ManagedChannel channel;

    /** What the service did: kept apart from the proxied service bean. */
    public static class Effects {

        final AtomicInteger placed = new AtomicInteger();

        final AtomicInteger reserveFailuresLeft = new AtomicInteger();

        final AtomicInteger reserveAttempts = new AtomicInteger();

        final AtomicInteger quoteAttempts = new AtomicInteger();

        final AtomicInteger quoteFailuresLeft = new AtomicInteger();

        final AtomicInteger shipped = new AtomicInteger();
    }

    /** A bean the handler calls: its @Timeout runs it on a worker, where the call's metadata must still be. */
    public static class Shipping {

        private final Effects effects;

        public Shipping(Effects effects) {
            this.effects = effects;
        }

        @Timeout("2s")
        @Idempotent
        public String ship(String parcel) {
            return "shipment " + effects.shipped.incrementAndGet() + " of " + parcel;
        }
    }

    /** The gRPC service's methods, on a Spring bean: the annotations apply as on any bean method. */
    public static class OrdersService {

        private final Effects effects;

        private final Shipping shipping;

        public OrdersService(Effects effects, Shipping shipping) {
            this.effects = effects;
            this.shipping = shipping;
        }

        public void ship(StringValue request, StreamObserver<StringValue> answer) {
            answer.onNext(StringValue.of(shipping.ship(request.getValue())));
            answer.onCompleted();
        }

        @Idempotent
        @Timeout("5s")
        @Retry(maxAttempts = 2)
        public void place(StringValue request, StreamObserver<StringValue> answer) {
            int order = effects.placed.incrementAndGet();
            // answered from another thread, as a handler that calls on asynchronously does
            CompletableFuture.runAsync(() -> {
                answer.onNext(StringValue.of("order " + order + " of " + request.getValue()));
                answer.onCompleted();
            });
        }

        @Idempotent(key = "#request.value")
        public void reserve(StringValue request, StreamObserver<StringValue> answer) {
            effects.reserveAttempts.incrementAndGet();
            if (effects.reserveFailuresLeft.getAndDecrement() > 0) {
                answer.onError(Status.UNAVAILABLE.withDescription("stock service down").asRuntimeException());
                return;
            }
            answer.onNext(StringValue.of("reserved " + request.getValue()));
            answer.onCompleted();
        }

        @Retry(maxAttempts = 3, idempotent = true)
        public void quote(StringValue request, StreamObserver<StringValue> answer) {
            effects.quoteAttempts.incrementAndGet();
            if (effects.quoteFailuresLeft.getAndDecrement() > 0) {
                answer.onError(Status.UNAVAILABLE.withDescription("shedding load").asRuntimeException());
                return;
            }
            answer.onNext(StringValue.of("price of " + request.getValue()));
            answer.onCompleted();
        }

        @Timeout("300ms")
        public void stall(StringValue request, StreamObserver<StringValue> answer) {
            // never answers
        }

        @Timeout(value = "300ms", fallbackMethod = "cachedPrice")
        public void stallWithFallback(StringValue request, StreamObserver<StringValue> answer) {
            // never answers
        }

        public void cachedPrice(StringValue request, StreamObserver<StringValue> answer, Throwable failure) {
            answer.onNext(StringValue.of("cached price of " + request.getValue()));
            answer.onCompleted();
        }
    }

    @SpringBootApplication
    static class GrpcServiceApplication {

        @Bean
        Effects effects() {
            return new Effects();
        }

        @Bean
        Shipping shipping(Effects effects) {
            return new Shipping(effects);
        }

        @Bean
        OrdersService ordersService(Effects effects, Shipping shipping) {
            return new OrdersService(effects, shipping);
        }
    }

    private static MethodDescriptor<StringValue, StringValue> unary(String name) {
        MethodDescriptor.Marshaller<StringValue> marshaller = ProtoUtils.marshaller(StringValue.getDefaultInstance());
        return MethodDescriptor.<StringValue, StringValue>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(marshaller).setResponseMarshaller(marshaller).build();
    }

    @BeforeEach
    void start() throws IOException {
        ServerServiceDefinition service = ServerServiceDefinition.builder(SERVICE)
                .addMethod(PLACE, ServerCalls.asyncUnaryCall(orders::place))
                .addMethod(RESERVE, ServerCalls.asyncUnaryCall(orders::reserve))
                .addMethod(QUOTE, ServerCalls.asyncUnaryCall(orders::quote))
                .addMethod(STALL, ServerCalls.asyncUnaryCall(orders::stall))
                .addMethod(STALL_WITH_FALLBACK, ServerCalls.asyncUnaryCall(orders::stallWithFallback))
                .addMethod(SHIP, ServerCalls.asyncUnaryCall(orders::ship))
                .build();
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(service, serverInterceptor)).build().start();
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(), InsecureChannelCredentials.create())
                .build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow();
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    /** A call with an idempotency key, its answer's headers captured. */
    private StringValue call(MethodDescriptor<StringValue, StringValue> method, String key, String request,
            AtomicReference<Metadata> answerHeaders) {
        Metadata headers = new Metadata();
        if (key != null) {
            headers.put(IDEMPOTENCY_KEY, key);
        }
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        Channel intercepted = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers),
                MetadataUtils.newCaptureMetadataInterceptor(answerHeaders, trailers));
        return ClientCalls.blockingUnaryCall(intercepted, method, CallOptions.DEFAULT.withDeadlineAfter(10,
                TimeUnit.SECONDS), StringValue.of(request));
    }

    @Test
    void duplicatesOfAKeyRunOnceAndTheReplayIsMarked() {
        String key = UUID.randomUUID().toString();
        AtomicReference<Metadata> first = new AtomicReference<>();
        AtomicReference<Metadata> second = new AtomicReference<>();
        int before = effects.placed.get();

        StringValue answer = call(PLACE, key, "3 apples", first);
        StringValue replay = call(PLACE, key, "3 apples", second);

        assertThat(effects.placed.get() - before).isEqualTo(1);
        assertThat(replay).isEqualTo(answer);
        assertThat(answer.getValue()).endsWith(" of 3 apples");
        assertThat(first.get().get(REPLAYED)).isNull();
        assertThat(second.get().get(REPLAYED)).isEqualTo("true");
    }

    @Test
    void concurrentDuplicatesRunOnce() throws Exception {
        String key = UUID.randomUUID().toString();
        int before = effects.placed.get();
        ExecutorService callers = Executors.newFixedThreadPool(6);
        try {
            List<CompletableFuture<Status.Code>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        call(PLACE, key, "2 pears", new AtomicReference<>());
                        return Status.Code.OK;
                    } catch (RuntimeException ex) {
                        return Status.fromThrowable(ex).getCode();
                    }
                }, callers));
            }
            for (CompletableFuture<Status.Code> outcome : calls) {
                // a duplicate answered while the first runs waits for it, or hears ABORTED
                assertThat(outcome.get(20, TimeUnit.SECONDS)).isIn(Status.Code.OK, Status.Code.ABORTED);
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(effects.placed.get() - before).isEqualTo(1);
    }

    @Test
    void aKeyReusedForAnotherRequestIsAlreadyExists() {
        String key = UUID.randomUUID().toString();
        call(PLACE, key, "1 melon", new AtomicReference<>());

        Throwable reused = catchThrowable(() -> call(PLACE, key, "9 melons", new AtomicReference<>()));

        assertThat(Status.fromThrowable(reused).getCode()).isEqualTo(Status.Code.ALREADY_EXISTS);
    }

    @Test
    void aCallWithoutTheKeyIsInvalidArgumentAndDoesNothing() {
        int before = effects.placed.get();

        Throwable missing = catchThrowable(() -> call(PLACE, null, "1 plum", new AtomicReference<>()));

        assertThat(Status.fromThrowable(missing).getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(effects.placed.get()).isEqualTo(before);
    }

    @Test
    void aFailedAnswerReleasesTheKeySoTheRetryRuns() {
        String item = "item-" + UUID.randomUUID();
        effects.reserveFailuresLeft.set(1);
        effects.reserveAttempts.set(0);

        Throwable failed = catchThrowable(() -> call(RESERVE, null, item, new AtomicReference<>()));
        StringValue retried = call(RESERVE, null, item, new AtomicReference<>());
        StringValue replayed = call(RESERVE, null, item, new AtomicReference<>());

        assertThat(Status.fromThrowable(failed).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(retried.getValue()).isEqualTo("reserved " + item);
        assertThat(replayed).isEqualTo(retried);
        assertThat(effects.reserveAttempts.get()).isEqualTo(2);
    }

    @Test
    void retryRepeatsAnAnswerOfUnavailable() {
        effects.quoteFailuresLeft.set(2);
        effects.quoteAttempts.set(0);

        StringValue answer = call(QUOTE, null, "figs", new AtomicReference<>());

        assertThat(answer.getValue()).isEqualTo("price of figs");
        assertThat(effects.quoteAttempts.get()).isEqualTo(3);
    }

    @Test
    void timeoutAnswersDeadlineExceededWhenTheMethodNeverAnswers() {
        long started = System.nanoTime();

        Throwable failure = catchThrowable(() -> call(STALL, null, "dates", new AtomicReference<>()));

        assertThat(Status.fromThrowable(failure).getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
        // 300 ms against the client's own 10 s: generous bound, well under the client's
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aFallbackOfTheSameShapeAnswersInstead() {
        StringValue answer = call(STALL_WITH_FALLBACK, null, "kiwis", new AtomicReference<>());

        assertThat(answer.getValue()).isEqualTo("cached price of kiwis");
    }

    @Test
    void aBeanMethodTheHandlerCallsReadsTheKeyOnItsTimeoutWorker() {
        String key = UUID.randomUUID().toString();
        int before = effects.shipped.get();

        StringValue first = call(SHIP, key, "parcel 5", new AtomicReference<>());
        StringValue again = call(SHIP, key, "parcel 5", new AtomicReference<>());

        assertThat(again).isEqualTo(first);
        assertThat(effects.shipped.get() - before).isEqualTo(1);
    }
}
