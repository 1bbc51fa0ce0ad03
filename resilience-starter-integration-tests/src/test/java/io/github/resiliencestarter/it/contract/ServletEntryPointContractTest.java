package io.github.resiliencestarter.it.contract;

import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.contract.EntryPoint;
import io.github.resiliencestarter.testsupport.contract.EntryPointCapability;
import io.github.resiliencestarter.testsupport.contract.HttpEntryPoint;
import io.github.resiliencestarter.testsupport.contract.IdempotencyEntryPointContract;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The {@code @Idempotent} contract on a Spring MVC handler and on a gRPC method, on the Redis store. */
@SpringBootTest(classes = ServletEntryPointsApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "resilience.idempotent.store=redis")
class ServletEntryPointContractTest extends IdempotencyEntryPointContract {

    @LocalServerPort
    private int port;

    @Autowired
    private ServletEntryPointsApplication.GrpcWork grpcWork;

    @Autowired
    private TraceContextServerInterceptor starterInterceptor;

    private Server server;

    private ManagedChannel channel;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
    }

    @BeforeAll
    void startGrpc() throws IOException {
        ServerServiceDefinition service = ServerServiceDefinition.builder("contract.Work")
                .addMethod(ServletEntryPointsApplication.PERFORM, ServerCalls.asyncUnaryCall(grpcWork::perform))
                .build();
        // outermost last: arrivals, then the starter, then the application's authentication
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(service, ServletEntryPointsApplication.basicAuthentication(),
                        starterInterceptor, ServletEntryPointsApplication.arrivalsOfCalls()))
                .build().start();
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(), InsecureChannelCredentials.create())
                .build();
    }

    @AfterAll
    void stopGrpc() throws InterruptedException {
        channel.shutdownNow();
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    @Override
    protected List<EntryPoint> entryPoints() {
        return List.of(new HttpEntryPoint("servlet", URI.create("http://127.0.0.1:" + port + "/contract"),
                EnumSet.of(EntryPointCapability.ANSWERS, EntryPointCapability.STATUSES, EntryPointCapability.CALLERS,
                        EntryPointCapability.DEADLINES)),
                new GrpcEntryPoint(channel));
    }
}
