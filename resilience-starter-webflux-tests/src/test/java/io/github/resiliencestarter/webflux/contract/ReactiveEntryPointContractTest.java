package io.github.resiliencestarter.webflux.contract;

import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.contract.EntryPoint;
import io.github.resiliencestarter.testsupport.contract.EntryPointCapability;
import io.github.resiliencestarter.testsupport.contract.HttpEntryPoint;
import io.github.resiliencestarter.testsupport.contract.IdempotencyEntryPointContract;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The {@code @Idempotent} contract on a WebFlux handler and on a gateway route, on the Redis store. */
@SpringBootTest(classes = ReactiveEntryPointsApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.main.web-application-type=reactive", "resilience.idempotent.store=redis",
            "resilience.idempotent.max-request-bytes=65536"})
class ReactiveEntryPointContractTest extends IdempotencyEntryPointContract {

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
        String route = "spring.cloud.gateway.server.webflux.routes[0].";
        registry.add(route + "id", () -> "contract");
        registry.add(route + "uri", () -> "http://127.0.0.1:"
                + ReactiveEntryPointsApplication.UPSTREAM.getAddress().getPort());
        registry.add(route + "predicates[0]", () -> "Path=/gw/**");
        registry.add(route + "filters[0]", () -> "IdempotencyKey");
    }

    @Override
    protected List<EntryPoint> entryPoints() {
        EnumSet<EntryPointCapability> http = EnumSet.of(EntryPointCapability.ANSWERS, EntryPointCapability.STATUSES,
                EntryPointCapability.CALLERS, EntryPointCapability.DEADLINES);
        EnumSet<EntryPointCapability> gateway = EnumSet.copyOf(http);
        gateway.add(EntryPointCapability.BODY_LIMIT);
        return List.of(new HttpEntryPoint("webflux", URI.create("http://127.0.0.1:" + port + "/contract"), http),
                new HttpEntryPoint("gateway", URI.create("http://127.0.0.1:" + port + "/gw/contract"), gateway));
    }
}
