package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A saturated timeout executor answers 503 at once instead of running the call without a timeout. */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"resilience.timeout.executor.core-size=1", "resilience.timeout.executor.max-size=1"})
class SaturationWebTest {

    @LocalServerPort
    private int port;

    @Test
    void aSaturatedExecutorAnswers503WithRetryAfterAndDoesNotRunTheHandler() throws Exception {
        WebTestApplication.TestController.HANDLER_CALLS.set(0);
        HttpClient http = HttpClient.newHttpClient();
        URI slow = URI.create("http://127.0.0.1:" + port + "/t/slow?ms=1500");
        CompletableFuture<HttpResponse<String>> occupying = http.sendAsync(HttpRequest.newBuilder(slow).build(),
                HttpResponse.BodyHandlers.ofString());
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (WebTestApplication.TestController.HANDLER_CALLS.get() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(WebTestApplication.TestController.HANDLER_CALLS.get()).isEqualTo(1);

        long start = System.nanoTime();
        HttpResponse<String> rejected = http.send(HttpRequest.newBuilder(slow).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(rejected.statusCode()).isEqualTo(503);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1000));
        assertThat(rejected.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(new ObjectMapper().readTree(rejected.body()).get("type").asText())
                .isEqualTo("urn:resilience-starter:problem:timeout-executor-saturated");
        assertThat(WebTestApplication.TestController.HANDLER_CALLS.get()).isEqualTo(1);
        assertThat(occupying.get().statusCode()).isEqualTo(504);
    }
}
