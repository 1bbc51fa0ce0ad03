package io.github.resiliencestarter.it.contract;

import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.contract.EntryPoint;
import io.github.resiliencestarter.testsupport.contract.EntryPointCapability;
import io.github.resiliencestarter.testsupport.contract.HttpEntryPoint;
import io.github.resiliencestarter.testsupport.contract.IdempotencyEntryPointContract;
import io.grpc.Server;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The {@code @Idempotent} contract on a Spring MVC handler and on a gRPC method, on the Redis store. */
@SpringBootTest(classes = ServletEntryPointsApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = ServletEntryPointsApplication.STORE)
class ServletEntryPointContractTest extends IdempotencyEntryPointContract {

    @LocalServerPort
    private int port;

    @Autowired
    private Server grpcServer;

    private GrpcEntryPoint grpc;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
    }

    @BeforeAll
    void connectGrpc() {
        grpc = GrpcEntryPoint.to(grpcServer.getPort());
    }

    @AfterAll
    void disconnectGrpc() {
        grpc.close();
    }

    @Override
    protected Class<?> application() {
        return ServletEntryPointsApplication.class;
    }

    @Override
    protected List<EntryPoint> entryPoints() {
        return List.of(new HttpEntryPoint("servlet", URI.create("http://127.0.0.1:" + port + "/contract"),
                EnumSet.of(EntryPointCapability.ANSWERS, EntryPointCapability.STATUSES, EntryPointCapability.CALLERS,
                        EntryPointCapability.DEADLINES, EntryPointCapability.KILLABLE)),
                grpc);
    }
}
