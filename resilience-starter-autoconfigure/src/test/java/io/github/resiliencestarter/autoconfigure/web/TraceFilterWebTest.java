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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The inbound filter, the problem responses and @Timeout over a real embedded server. */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"logging.pattern.level=%5p [%X{traceId:-}]", "resilience.trace.max-inbound-budget=10s"})
@ExtendWith(OutputCaptureExtension.class)
class TraceFilterWebTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @BeforeEach
    void reset() {
        WebTestApplication.TestController.HANDLER_CALLS.set(0);
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aSlowTimeoutEndpointAnswers504WithATraceIdInTimeAndItsLogLinesCarryTheTraceId(CapturedOutput output)
            throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = get("/t/slow?ms=2000", ResilienceHeaders.TRACE_ID, "slow-req-1");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(took).isLessThan(Duration.ofMillis(1500));
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(504);
        assertThat(problem.get("traceId").asText()).isEqualTo("slow-req-1");
        assertThat(problem.get("type").asText()).isEqualTo("urn:resilience-starter:problem:deadline-exceeded");
        assertThat(problem.get("detail").asText()).isEqualTo("The request did not complete within its deadline");
        assertThat(response.headers().firstValue(ResilienceHeaders.TRACE_ID)).hasValue("slow-req-1");
        assertThat(output.getOut()).containsPattern("INFO \\[slow-req-1\\].*slow call started");
    }

    @Test
    void springBootsErrorBodyCarriesTheTraceIdWhenProblemDetailsAreOff() throws Exception {
        HttpResponse<String> failed = get("/t/boom", ResilienceHeaders.TRACE_ID, "boom-map-1");
        HttpResponse<String> missing = get("/t/no-such-path", ResilienceHeaders.TRACE_ID, "nf-map-1");

        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(JSON.readTree(failed.body()).get("traceId").asText()).isEqualTo("boom-map-1");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(missing.body()).get("traceId").asText()).isEqualTo("nf-map-1");
    }

    @Test
    void TP3_theDownstreamSeesABudgetNoLargerThanTheUpstreamHadAndTheSameTraceId() throws Exception {
        HttpResponse<String> response = get("/t/upstream?port=" + port, ResilienceHeaders.TRACE_ID, "chain-1",
                ResilienceHeaders.TIMEOUT_BUDGET_MS, "5000");

        // generous: the budget only has to be shown to shrink, even on a loaded machine
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        long sent = body.get("sentBudgetMs").asLong();
        long downstream = body.get("downstream").get("remainingMs").asLong();
        assertThat(sent).isPositive().isLessThanOrEqualTo(5000);
        assertThat(downstream).isPositive().isLessThanOrEqualTo(sent);
        assertThat(body.get("downstream").get("traceId").asText()).isEqualTo("chain-1");
    }

    @Test
    void T1_theInboundBudgetBoundsTheDeadlineSeenByTheHandler() throws Exception {
        JsonNode body = JSON.readTree(get("/t/context", ResilienceHeaders.TIMEOUT_BUDGET_MS, "7000",
                ResilienceHeaders.GRPC_TIMEOUT, "4000m").body());
        assertThat(body.get("remainingMs").asLong()).isPositive().isLessThanOrEqualTo(4000);

        JsonNode capped = JSON.readTree(get("/t/context", ResilienceHeaders.TIMEOUT_BUDGET_MS, "999999999").body());
        assertThat(capped.get("remainingMs").asLong()).isPositive().isLessThanOrEqualTo(10_000);

        JsonNode none = JSON.readTree(get("/t/context").body());
        assertThat(none.get("remainingMs").asLong()).isEqualTo(-1);
    }

    @Test
    void anAlreadySpentBudgetAnswers504WithoutCallingTheHandler() throws Exception {
        HttpResponse<String> response = get("/t/context", ResilienceHeaders.TIMEOUT_BUDGET_MS, "0",
                ResilienceHeaders.TRACE_ID, "spent-1");

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(WebTestApplication.TestController.HANDLER_CALLS.get()).isZero();
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("traceId").asText()).isEqualTo("spent-1");
        assertThat(problem.get("instance").asText()).isEqualTo("/t/context");
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
    }

    @Test
    void badBudgetHeadersAreIgnoredNeverA500() throws Exception {
        String[][] cases = {{ResilienceHeaders.TIMEOUT_BUDGET_MS, "-5"}, {ResilienceHeaders.TIMEOUT_BUDGET_MS, "abc"},
            {ResilienceHeaders.TIMEOUT_BUDGET_MS, "99999999999999999999999"}, {ResilienceHeaders.GRPC_TIMEOUT, "10x"},
            {ResilienceHeaders.GRPC_TIMEOUT, "123456789S"}, {ResilienceHeaders.ENVOY_EXPECTED_TIMEOUT_MS, "1.5"}};
        for (String[] header : cases) {
            HttpResponse<String> response = get("/t/context", header[0], header[1]);
            assertThat(response.statusCode()).as("%s: %s", header[0], header[1]).isEqualTo(200);
            assertThat(JSON.readTree(response.body()).get("remainingMs").asLong()).isEqualTo(-1);
        }
    }

    @Test
    void traceIdPrecedenceAndValidation() throws Exception {
        JsonNode explicit = JSON.readTree(get("/t/context", ResilienceHeaders.TRACE_ID, "abc-123",
                ResilienceHeaders.TRACEPARENT, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").body());
        assertThat(explicit.get("traceId").asText()).isEqualTo("abc-123");

        HttpResponse<String> fromParent = get("/t/context", ResilienceHeaders.TRACE_ID, "bad id;drop",
                ResilienceHeaders.TRACEPARENT, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assertThat(JSON.readTree(fromParent.body()).get("traceId").asText())
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(fromParent.headers().firstValue(ResilienceHeaders.TRACE_ID))
                .hasValue("4bf92f3577b34da6a3ce929d0e0e4736");

        HttpResponse<String> generated = get("/t/context", ResilienceHeaders.TRACE_ID, "x".repeat(65));
        String id = JSON.readTree(generated.body()).get("traceId").asText();
        assertThat(id).matches("[0-9a-f]{32}");
        assertThat(generated.headers().firstValue(ResilienceHeaders.TRACE_ID)).hasValue(id);
    }

    @Test
    void theMdcCarriesTheTraceIdDuringTheRequestAndIsClearedAfterIt() throws Exception {
        WebTestApplication.MDC_AFTER_REQUEST.set("unset");
        JsonNode body = JSON.readTree(get("/t/context", ResilienceHeaders.TRACE_ID, "mdc-1").body());

        assertThat(body.get("mdcTraceId").asText()).isEqualTo("mdc-1");
        assertThat(WebTestApplication.MDC_AFTER_REQUEST.get()).isNull();
    }

    @Test
    void offloadedHandlersSeeTraceIdMdcAndRequestAttributesOnTheWorker() throws Exception {
        JsonNode body = JSON.readTree(get("/t/worker", ResilienceHeaders.TRACE_ID, "worker-1").body());

        assertThat(body.get("thread").asText()).startsWith("resilience-timeout-");
        assertThat(body.get("traceId").asText()).isEqualTo("worker-1");
        assertThat(body.get("mdcTraceId").asText()).isEqualTo("worker-1");
        assertThat(body.get("requestAttributes").asBoolean()).isTrue();
    }
}
