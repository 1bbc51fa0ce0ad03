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
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The trace id is on every problem and every log line of a request, Spring's own included: with
 * {@code spring.mvc.problemdetails.enabled=true}, as the sample runs, over a real embedded server.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"logging.pattern.level=%5p [%X{traceId:-}]", "spring.mvc.problemdetails.enabled=true"})
@ExtendWith(OutputCaptureExtension.class)
class SpringProblemsTraceWebTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    private HttpResponse<String> send(String method, String path, String traceId, String contentType, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).header(ResilienceHeaders.TRACE_ID, traceId)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aValidationProblemCarriesTheTraceIdAndListsEachInvalidField() throws Exception {
        HttpResponse<String> response = send("POST", "/t/items", "invalid-1", "application/json",
                "{\"name\":\" \",\"quantity\":0}");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("traceId").asText()).isEqualTo("invalid-1");
        assertThat(problem.get("errors")).hasSize(2);
        assertThat(problem.get("errors").findValuesAsText("field")).containsExactlyInAnyOrder("name", "quantity");
        assertThat(problem.get("errors").findValuesAsText("message")).allSatisfy(m -> assertThat(m).isNotBlank());
        assertThat(response.body()).doesNotContain("\" \"");
    }

    @Test
    void springsOwn404And405And415ProblemsCarryTheTraceId() throws Exception {
        HttpResponse<String> notFound = send("GET", "/t/no-such-path", "nf-1", null, null);
        HttpResponse<String> notAllowed = send("DELETE", "/t/context", "na-1", null, null);
        HttpResponse<String> unsupported = send("POST", "/t/items", "us-1", "text/plain", "name=x");

        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(notFound.body()).get("traceId").asText()).isEqualTo("nf-1");
        assertThat(notAllowed.statusCode()).isEqualTo(405);
        assertThat(JSON.readTree(notAllowed.body()).get("traceId").asText()).isEqualTo("na-1");
        assertThat(unsupported.statusCode()).isEqualTo(415);
        assertThat(JSON.readTree(unsupported.body()).get("traceId").asText()).isEqualTo("us-1");
    }

    @Test
    void anUnhandledFailureIsA500WhoseBodyAndContainerErrorLineCarryTheTraceId(CapturedOutput output)
            throws Exception {
        HttpResponse<String> response = send("GET", "/t/boom", "boom-1", null, null);

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(JSON.readTree(response.body()).get("traceId").asText()).isEqualTo("boom-1");
        assertThat(response.body()).doesNotContain("a bug no handler answers", "IllegalStateException");
        String containerLine = Arrays.stream(output.getOut().split("\n"))
                .filter(line -> line.contains("ERROR") && line.contains("Servlet.service()")).reduce((a, b) -> b)
                .orElseThrow();
        assertThat(containerLine).contains("ERROR [boom-1]");
    }
}
