package io.github.resiliencestarter.it.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.spring.grpc.DeadlineClientInterceptor;
import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Context;
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
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
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

/**
 * The gRPC interceptors on real Netty servers and channels on loopback: the budget shrinks across
 * two hops and the trace id travels; a slow server is cancelled at the caller's deadline; a call
 * with the budget spent is not sent; the starter's failures reach the client as their gRPC
 * statuses; {@code @Retry} retries {@code UNAVAILABLE} and not {@code INVALID_ARGUMENT}.
 */
@SpringBootTest(classes = GrpcDeadlineAndStatusTest.GrpcApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {"resilience.retry.delay=5ms",
            "resilience.retry.max-delay=10ms", "resilience.retry.budget-enabled=false"})
class GrpcDeadlineAndStatusTest {

    private static final String FRONT = "test.Front";

    private static final String BACK = "test.Back";

    private static final MethodDescriptor<String, String> FRONT_CALL = TextCalls.unary(FRONT, "Call");

    private static final MethodDescriptor<String, String> BACK_ECHO = TextCalls.unary(BACK, "Echo");

    private static final MethodDescriptor<String, String> BACK_SLOW = TextCalls.unary(BACK, "Slow");

    private static final MethodDescriptor<String, String> BACK_FAIL = TextCalls.unary(BACK, "Fail");

    private static final MethodDescriptor<String, String> BACK_FLAKY = TextCalls.unary(BACK, "Flaky");

    private static final Metadata.Key<String> TRACE_ID = Metadata.Key.of("x-trace-id",
            Metadata.ASCII_STRING_MARSHALLER);

    private static final Metadata.Key<String> ATTEMPT = Metadata.Key.of("x-retry-attempt",
            Metadata.ASCII_STRING_MARSHALLER);

    @Autowired
    private TraceContextServerInterceptor serverInterceptor;

    @Autowired
    private DeadlineClientInterceptor clientInterceptor;

    @Autowired
    private BackClient backClient;

    /** What the back server's handlers saw: "trace remainingMillis" per call, and attempts. */
    private static final List<String> SEEN = new CopyOnWriteArrayList<>();

    private static final AtomicInteger FLAKY_LEFT = new AtomicInteger();

    private static final CountDownLatch SLOW_CANCELLED = new CountDownLatch(1);

    private Server back;

    private Server front;

    private ManagedChannel toBack;

    private ManagedChannel toFront;

    /** Calls the back server through the client interceptor; retried, as a read may be. */
    public static class BackClient {

        private final AtomicReference<Channel> channel = new AtomicReference<>();

        public void use(Channel intercepted) {
            channel.set(intercepted);
        }

        @Retry(maxAttempts = 3, idempotent = true)
        public String flaky(String request) {
            return ClientCalls.blockingUnaryCall(channel.get(), BACK_FLAKY, CallOptions.DEFAULT, request);
        }
    }

    @SpringBootApplication
    static class GrpcApplication {

        @Bean
        BackClient backClient() {
            return new BackClient();
        }
    }

    private static String seen() {
        TraceContext context = TraceContextHolder.current();
        return context.traceId() + " " + (context.deadline() == null ? "none" : context.deadline().remainingMillis());
    }

    @BeforeEach
    void start() throws IOException {
        SEEN.clear();
        ServerServiceDefinition backService = ServerServiceDefinition.builder(BACK)
                .addMethod(BACK_ECHO, ServerCalls.asyncUnaryCall((request, response) -> {
                    SEEN.add(seen());
                    response.onNext("echo " + request);
                    response.onCompleted();
                }))
                .addMethod(BACK_SLOW, ServerCalls.asyncUnaryCall((request, response) -> {
                    Context.current().addListener(cancelled -> SLOW_CANCELLED.countDown(), Runnable::run);
                    SEEN.add(seen());
                }))
                .addMethod(BACK_FAIL, ServerCalls.asyncUnaryCall((request, response) -> {
                    if (request.equals("throw")) {
                        throw new IdempotencyKeyReusedException("Back.Fail");
                    }
                    response.onError(DeadlineExceededException.budgetSpent("Back.Fail"));
                }))
                .addMethod(BACK_FLAKY, ServerCalls.asyncUnaryCall((request, response) -> {
                    SEEN.add("attempt " + TraceContextHolder.current().attempt());
                    if (request.equals("invalid")) {
                        response.onError(Status.INVALID_ARGUMENT.withDescription("no such item").asRuntimeException());
                    } else if (FLAKY_LEFT.getAndDecrement() > 0) {
                        response.onError(Status.UNAVAILABLE.withDescription("shedding load").asRuntimeException());
                    } else {
                        response.onNext("stock of " + request);
                        response.onCompleted();
                    }
                }))
                .build();
        back = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(backService, new AttemptReader(), serverInterceptor)).build()
                .start();
        toBack = Grpc.newChannelBuilderForAddress("127.0.0.1", back.getPort(), InsecureChannelCredentials.create())
                .build();
        Channel backChannel = ClientInterceptors.intercept(toBack, clientInterceptor);
        backClient.use(backChannel);

        ServerServiceDefinition frontService = ServerServiceDefinition.builder(FRONT)
                .addMethod(FRONT_CALL, ServerCalls.asyncUnaryCall((request, response) -> {
                    SEEN.add(seen());
                    response.onNext(ClientCalls.blockingUnaryCall(backChannel, BACK_ECHO, CallOptions.DEFAULT, request));
                    response.onCompleted();
                }))
                .build();
        front = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(frontService, serverInterceptor)).build().start();
        toFront = Grpc.newChannelBuilderForAddress("127.0.0.1", front.getPort(), InsecureChannelCredentials.create())
                .build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        toFront.shutdownNow();
        toBack.shutdownNow();
        front.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        back.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    @Test
    void theBudgetShrinksAcrossTwoHopsAndTheTraceIdTravels() {
        Metadata headers = new Metadata();
        headers.put(TRACE_ID, "grpc-trace-1");
        Channel caller = ClientInterceptors.intercept(toFront, MetadataUtils.newAttachHeadersInterceptor(headers));

        String answer = ClientCalls.blockingUnaryCall(caller, FRONT_CALL,
                CallOptions.DEFAULT.withDeadlineAfter(2, TimeUnit.SECONDS), "hello");

        assertThat(answer).isEqualTo("echo hello");
        assertThat(SEEN).hasSize(2);
        String[] front = SEEN.get(0).split(" ");
        String[] back = SEEN.get(1).split(" ");
        assertThat(front[0]).isEqualTo("grpc-trace-1");
        assertThat(back[0]).isEqualTo("grpc-trace-1");
        long frontLeft = Long.parseLong(front[1]);
        long backLeft = Long.parseLong(back[1]);
        assertThat(frontLeft).isPositive().isLessThanOrEqualTo(2_000);
        // the back hop got the front's remaining budget less the margin, from gRPC's own deadline
        assertThat(backLeft).isPositive().isLessThan(frontLeft);
    }

    @Test
    void aSlowServerIsCancelledAtTheCallersDeadline() throws InterruptedException {
        Channel backChannel = ClientInterceptors.intercept(toBack, clientInterceptor);
        long started = System.nanoTime();
        Throwable failure;
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("grpc-slow")
                .withDeadline(Deadline.after(Duration.ofMillis(300))))) {
            failure = catchThrowable(() -> ClientCalls.blockingUnaryCall(backChannel, BACK_SLOW, CallOptions.DEFAULT,
                    "wait"));
        }

        assertThat(failure).isInstanceOfSatisfying(StatusRuntimeException.class,
                error -> assertThat(error.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        // 300 ms budget against a server that never answers: generous bound
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(SLOW_CANCELLED.await(10, TimeUnit.SECONDS)).as("the server's work was cancelled").isTrue();
    }

    @Test
    void aCallWithTheBudgetSpentIsNotSent() {
        Channel backChannel = ClientInterceptors.intercept(toBack, clientInterceptor);
        Throwable failure;
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("grpc-spent")
                .withDeadline(Deadline.after(Duration.ZERO)))) {
            failure = catchThrowable(() -> ClientCalls.blockingUnaryCall(backChannel, BACK_ECHO, CallOptions.DEFAULT,
                    "late"));
        }

        assertThat(failure).isInstanceOf(DeadlineExceededException.class);
        assertThat(SEEN).isEmpty();
    }

    @Test
    void theStartersFailuresReachTheClientAsTheirStatuses() {
        Throwable reused = catchThrowable(() -> ClientCalls.blockingUnaryCall(toBack, BACK_FAIL, CallOptions.DEFAULT,
                "throw"));
        Throwable deadline = catchThrowable(() -> ClientCalls.blockingUnaryCall(toBack, BACK_FAIL, CallOptions.DEFAULT,
                "error"));

        assertThat(Status.fromThrowable(reused).getCode()).isEqualTo(Status.Code.ALREADY_EXISTS);
        assertThat(Status.fromThrowable(deadline).getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
        // nothing of the server's classes in what the client reads
        assertThat(Status.fromThrowable(reused).getDescription()).doesNotContain("Back.Fail");
    }

    @Test
    void retryRepeatsUnavailableAndNumbersTheAttempts() {
        FLAKY_LEFT.set(2);

        assertThat(backClient.flaky("apples")).isEqualTo("stock of apples");

        assertThat(SEEN).containsExactly("attempt 1", "attempt 2", "attempt 3");
    }

    @Test
    void retryDoesNotRepeatInvalidArgument() {
        Throwable failure = catchThrowable(() -> backClient.flaky("invalid"));

        assertThat(Status.fromThrowable(failure).getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(SEEN).containsExactly("attempt 1");
    }
}
