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
 * Spring's validation 400 on Boot's default error path (problem details off, Boot's default): the
 * error body carries the trace id and the invalid fields' names and messages, never the rejected
 * values, as a problem does.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.mvc.problemdetails.enabled=false")
class BootErrorPathFieldsWebTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    private int port;

    @Test
    void aValidationFailureOnBootsErrorPathListsTheInvalidFieldsWithoutTheirValues() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/t/items")).timeout(Duration.ofSeconds(10))
                .header(ResilienceHeaders.TRACE_ID, "fields-1").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"secret-looking value \",\"quantity\":0}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = JSON.readTree(response.body());
        // Boot's own error body, not a problem
        assertThat(body.has("timestamp")).isTrue();
        assertThat(body.get("traceId").asText()).isEqualTo("fields-1");
        assertThat(body.get("errors").findValuesAsText("field")).containsExactlyInAnyOrder("quantity");
        assertThat(response.body()).doesNotContain("secret-looking");
    }
}
