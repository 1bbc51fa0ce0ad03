package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The sample on its embedded defaults: a 200 ms @Timeout over a 2 s sleep answers 504 quickly. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationTest {

    @LocalServerPort
    private int port;

    @Test
    void aSlowEndpointAnswers504WithItsTraceIdWellUnderTwoSecondsAndLogsCarryTheTraceId(CapturedOutput output)
            throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long start = System.nanoTime();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/demo/slow?sleepMs=2000")).build(),
                HttpResponse.BodyHandlers.ofString());
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(took).isLessThan(Duration.ofMillis(1500));
        JsonNode problem = new ObjectMapper().readTree(response.body());
        String traceId = problem.get("traceId").asText();
        assertThat(traceId).matches("[0-9a-f]{32}");
        assertThat(response.headers().firstValue("X-Trace-Id")).hasValue(traceId);
        assertThat(output.getOut()).contains("[" + traceId + "]").containsPattern(
                "\\[" + traceId + "\\].*slow call started");
    }

    @Test
    void aFastCallSucceeds() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/demo/slow?sleepMs=10")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
    }
}
