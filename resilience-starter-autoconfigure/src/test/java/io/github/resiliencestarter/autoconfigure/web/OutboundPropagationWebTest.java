package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.resiliencestarter.context.ResilienceHeaders;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Outbound propagation through a Boot-built RestClient, over real HTTP. */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OutboundPropagationWebTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    private int port;

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void RP4_theDownstreamSeesTheAttemptNumberOfEachRetry() throws Exception {
        WebTestApplication.PropagationController.ATTEMPT_HEADERS.clear();
        HttpResponse<String> response = get("/p/retrying");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ok");
        assertThat(WebTestApplication.PropagationController.ATTEMPT_HEADERS).containsExactly("1", "2", "3");
    }

    @Test
    void RP2_aFailureAlreadyRetriedDownstreamIsNotRetriedAgainUpstream() throws Exception {
        WebTestApplication.PropagationController.EXHAUSTED_ATTEMPTS.set(0);
        WebTestApplication.PropagationController.UPSTREAM_ATTEMPTS.set(0);

        HttpResponse<String> direct = get("/p/exhausted");
        assertThat(direct.statusCode()).isEqualTo(500);
        assertThat(direct.headers().firstValue(ResilienceHeaders.RETRY_EXHAUSTED)).hasValue("true");
        assertThat(WebTestApplication.PropagationController.EXHAUSTED_ATTEMPTS.get()).isEqualTo(3);

        WebTestApplication.PropagationController.EXHAUSTED_ATTEMPTS.set(0);
        HttpResponse<String> chained = get("/p/upstream-of-exhausted");
        assertThat(chained.statusCode()).isEqualTo(500);
        // 3 downstream attempts in total, not 3 x 3: the upstream saw the marker and stopped
        assertThat(WebTestApplication.PropagationController.EXHAUSTED_ATTEMPTS.get()).isEqualTo(3);
        assertThat(WebTestApplication.PropagationController.UPSTREAM_ATTEMPTS.get()).isEqualTo(1);
    }

    @Test
    void TP3_theBudgetAndTraceIdAreSentDownstreamAutomatically() throws Exception {
        JsonNode body = JSON.readTree(get("/p/call-count", ResilienceHeaders.TRACE_ID, "auto-1").body());

        long sent = body.get("budget").asLong();
        assertThat(sent).isPositive().isLessThanOrEqualTo(2000 - 20);
        assertThat(body.get("remainingMs").asLong()).isPositive().isLessThanOrEqualTo(sent);
        assertThat(body.get("upstreamRemainingMs").asLong()).isPositive().isLessThan(2000);
        assertThat(body.get("traceId").asText()).isEqualTo("auto-1");
    }

    @Test
    void TP3_aSlowDownstreamEndsWithTheCallersBudgetAndLeavesNoGhostWork() throws Exception {
        WebTestApplication.PropagationController.GHOST_WRITES.set(0);
        WebTestApplication.PropagationController.GHOST_WRITES_AFTER_DEADLINE.set(0);
        long start = System.nanoTime();
        HttpResponse<String> response = get("/p/ghost-upstream");
        long tookMillis = (System.nanoTime() - start) / 1_000_000;

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(tookMillis).isLessThan(1_500);
        Thread.sleep(1_000);
        int written = WebTestApplication.PropagationController.GHOST_WRITES.get();
        Thread.sleep(300);
        // the downstream stopped at its own (inherited) deadline instead of writing its 150 rows
        assertThat(WebTestApplication.PropagationController.GHOST_WRITES.get()).isEqualTo(written).isLessThan(60);
        assertThat(WebTestApplication.PropagationController.GHOST_WRITES_AFTER_DEADLINE.get()).isZero();
    }

    @Test
    void TP3_aSpentBudgetSendsNothingAndFailsAtOnce() throws Exception {
        WebTestApplication.PropagationController.COUNTED.set(0);
        // 150 ms inbound budget, the handler sleeps 140 ms: less than the 20 ms margin is left
        HttpResponse<String> response = get("/p/call-count?sleepFirstMs=140", ResilienceHeaders.TIMEOUT_BUDGET_MS,
                "150");

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(WebTestApplication.PropagationController.COUNTED.get()).isZero();
    }
}
