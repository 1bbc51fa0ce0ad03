package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.resiliencestarter.testsupport.DisposablePostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The JDBC store's PostgreSQL crashes while the application serves: 503 with Retry-After and the
 * business method not executed; once the server is back, calls succeed again without a restart.
 */
class PostgresStoreOutageWebTest {

    private static HttpResponse<String> order(int port, String orderNo) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/i/orders")).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"orderNo\":\"" + orderNo + "\",\"userId\":1,\"amount\":1}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPostgresCrashFailsClosedWith503AndCallsSucceedOnceItIsBack() throws Exception {
        try (DisposablePostgres server = DisposablePostgres.start();
                ConfigurableApplicationContext app = new SpringApplicationBuilder(IdempotencyWebTestApplication.class)
                        .run("--server.port=0", "--resilience.idempotent.store=jdbc",
                                "--resilience.idempotent.jdbc.initialize-schema=always",
                                "--spring.datasource.url=" + server.url(),
                                "--spring.datasource.username=" + DisposablePostgres.USER,
                                "--spring.datasource.password=" + DisposablePostgres.USER,
                                "--spring.datasource.hikari.connection-timeout=500")) {
            int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
            String run = Long.toHexString(System.nanoTime());
            assertThat(order(port, "pg-up-" + run).statusCode()).isEqualTo(200);

            server.kill();
            int before = IdempotencyWebTestApplication.executions("orders");
            HttpResponse<String> down = order(port, "pg-down-" + run);

            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(down.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(new ObjectMapper().readTree(down.body()).get("type").asText())
                    .endsWith("idempotency-store-unavailable");
            assertThat(down.body()).doesNotContain("127.0.0.1");
            assertThat(IdempotencyWebTestApplication.executions("orders")).isEqualTo(before);

            server.resume();
            int status = 0;
            long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (status != 200 && System.nanoTime() < until) {
                status = order(port, "pg-down-" + run).statusCode();
                if (status != 200) {
                    Thread.sleep(200);
                }
            }
            assertThat(status).isEqualTo(200);
            assertThat(IdempotencyWebTestApplication.executions("orders")).isEqualTo(before + 1);
        }
    }
}
