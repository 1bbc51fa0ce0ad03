package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        WebTestApplication.TestController.holdStarted = new CountDownLatch(1);
        WebTestApplication.TestController.holdReleased = new CountDownLatch(1);
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest hold = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/t/hold"))
                .timeout(Duration.ofSeconds(30)).build();
        try {
            // the only worker stays busy until released, past its call's 200 ms timeout
            CompletableFuture<HttpResponse<String>> occupying = http.sendAsync(hold,
                    HttpResponse.BodyHandlers.ofString());
            assertThat(WebTestApplication.TestController.holdStarted.await(30, TimeUnit.SECONDS)).isTrue();

            long start = System.nanoTime();
            HttpResponse<String> rejected = http.send(hold, HttpResponse.BodyHandlers.ofString());

            assertThat(rejected.statusCode()).isEqualTo(503);
            // a queued or caller-run call would wait for the release, which comes only after this
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(rejected.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(new ObjectMapper().readTree(rejected.body()).get("type").asText())
                    .isEqualTo("urn:resilience-starter:problem:timeout-executor-saturated");
            assertThat(WebTestApplication.TestController.HANDLER_CALLS.get()).isEqualTo(1);
            assertThat(occupying.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(504);
        } finally {
            WebTestApplication.TestController.holdReleased.countDown();
        }
    }
}
