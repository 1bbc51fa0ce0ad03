package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.resiliencestarter.context.ResilienceHeaders;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The starter's problem-details handler switched off: its errors still keep their status on
 * Boot's own error page (a deadline is a 504, not a 500), with the trace id.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "resilience.problems.enabled=false")
class StarterErrorsWithoutTheHandlerWebTest {

    @LocalServerPort
    private int port;

    @Test
    void aDeadlineIsStillA504OnBootsErrorPage() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/t/slow?ms=2000")).timeout(Duration.ofSeconds(10))
                .header(ResilienceHeaders.TRACE_ID, "no-handler-1").build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(504);
        JsonNode body = new ObjectMapper().readTree(response.body());
        assertThat(body.has("timestamp")).as("Boot's own error body").isTrue();
        assertThat(response.body()).doesNotContain("DeadlineExceededException");
    }
}
