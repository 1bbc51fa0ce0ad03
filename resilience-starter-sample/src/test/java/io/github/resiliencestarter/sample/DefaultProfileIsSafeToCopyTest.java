package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.chaos.FaultInjector;
import io.github.resiliencestarter.context.TraceIds;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

/**
 * The sample as people copy it, on its default profile only (its own application.yml, not the
 * tests' configuration that adds the demo profile): nobody can make its inventory fail, and no
 * request gets an injected fault, whatever headers it sends.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.config.location=classpath:/application.yml")
class DefaultProfileIsSafeToCopyTest {

    @LocalServerPort
    private int port;

    @Autowired
    private ApplicationContext context;

    @Test
    void theFaultsCannotBeSet() {
        SampleHttp http = new SampleHttp(port);

        HttpResponse<String> refused = http.send("PUT", "/inventory/faults",
                "{\"latencyMs\":0,\"failureRate\":1.0,\"failureStatus\":503,\"failNext\":0}");

        assertThat(refused.statusCode()).isEqualTo(404);
        assertThat(SampleHttp.json(refused).path("type").asText()).endsWith("faults-endpoint-off");
        assertThat(SampleHttp.json(http.send("GET", "/inventory/faults", null)).path("settings")
                .path("failureRate").asDouble()).isZero();
    }

    @Test
    void noRequestGetsAnInjectedFault() {
        assertThat(context.getEnvironment().getActiveProfiles()).doesNotContain("demo");
        assertThat(context.getBeanNamesForType(FaultInjector.class)).isEmpty();

        String orderNo = "SAFE-" + TraceIds.generate().substring(0, 8);
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> created = new SampleHttp(port).createOrder(orderNo + "-" + i, 1, 1, "1.00",
                    "X-Resilience-Chaos", "inventory-503");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        }
    }
}
