package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A store that cannot be reached: 503 with Retry-After, and the business method is not executed. */
@SpringBootTest(classes = IdempotencyWebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"resilience.idempotent.store=redis", "spring.data.redis.timeout=500ms",
            "spring.data.redis.connect-timeout=500ms"})
class StoreOutageWebTest {

    @DynamicPropertySource
    static void closedRedis(DynamicPropertyRegistry registry) throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        registry.add("spring.data.redis.url", () -> "redis://127.0.0.1:" + closed);
    }

    @LocalServerPort
    private int port;

    @Test
    void aStoreOutageFailsClosedWith503AndNothingIsExecuted() throws Exception {
        int before = IdempotencyWebTestApplication.executions("orders");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/i/orders")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"orderNo\":\"down-1\",\"userId\":1,\"amount\":1}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(new ObjectMapper().readTree(response.body()).get("type").asText())
                .endsWith("idempotency-store-unavailable");
        assertThat(response.body()).doesNotContain("127.0.0.1");
        assertThat(IdempotencyWebTestApplication.executions("orders")).isEqualTo(before);
    }
}
