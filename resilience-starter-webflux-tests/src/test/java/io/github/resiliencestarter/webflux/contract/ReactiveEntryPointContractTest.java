package io.github.resiliencestarter.webflux.contract;

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
@SpringBootTest(classes = ReactiveEntryPointsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReactiveEntryPointContractTest extends IdempotencyEntryPointContract {

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        ReactiveEntryPointsApplication.properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @Override
    protected Class<?> application() {
        return ReactiveEntryPointsApplication.class;
    }

    @Override
    protected List<EntryPoint> entryPoints() {
        EnumSet<EntryPointCapability> http = EnumSet.of(EntryPointCapability.ANSWERS, EntryPointCapability.STATUSES,
                EntryPointCapability.CALLERS, EntryPointCapability.DEADLINES, EntryPointCapability.KILLABLE);
        EnumSet<EntryPointCapability> gateway = EnumSet.copyOf(http);
        gateway.add(EntryPointCapability.BODY_LIMIT);
        return List.of(new HttpEntryPoint("webflux", URI.create("http://127.0.0.1:" + port + "/contract"), http),
                new HttpEntryPoint("gateway", URI.create("http://127.0.0.1:" + port + "/gw/contract"), gateway));
    }
}
