package io.github.resiliencestarter.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.resiliencestarter.context.TraceIds;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Per-user isolation and replay hygiene behind a real Spring Security filter chain, with the
 * README's annotation stack and JPA writes; subclasses choose the real store.
 */
abstract class CrossUserIsolationContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();

    private final String run = TraceIds.generate().substring(0, 10);

    @LocalServerPort
    private int port;

    @Autowired
    private PurchaseOrderRepository repository;

    private HttpResponse<String> send(String user, String method, String path, String body, String... headers)
            throws Exception {
        String credentials = user + ":" + user + "-password";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        credentials.getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String order(String orderNo, int quantity) {
        return "{\"orderNo\":\"" + orderNo + "\",\"quantity\":" + quantity + "}";
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/orders", "/orders/interrupt"})
    void I1_anotherUserSendingTheSameKeyAndPayloadGetsTheirOwnExecutionNeverTheFirstUsersResponse(String path)
            throws Exception {
        String orderNo = "X-" + run + path.length();
        HttpResponse<String> alice = send("alice", "POST", path, order(orderNo, 1));
        HttpResponse<String> bob = send("bob", "POST", path, order(orderNo, 1));

        assertThat(alice.statusCode()).isEqualTo(201);
        assertThat(bob.statusCode()).isEqualTo(201);
        assertThat(json(alice).get("user").asText()).isEqualTo("alice");
        assertThat(json(bob).get("user").asText()).isEqualTo("bob");
        assertThat(bob.headers().allValues("Idempotent-Replayed")).isEmpty();
        assertThat(bob.headers().allValues("Set-Cookie")).containsExactly("SESSION=bob-session; HttpOnly");
        assertThat(repository.countByOrderNoAndOwner(orderNo, "alice")).isEqualTo(1);
        assertThat(repository.countByOrderNoAndOwner(orderNo, "bob")).isEqualTo(1);

        // each user's duplicate replays that user's own first response
        HttpResponse<String> aliceAgain = send("alice", "POST", path, order(orderNo, 1));
        HttpResponse<String> bobAgain = send("bob", "POST", path, order(orderNo, 1));
        assertThat(aliceAgain.body()).isEqualTo(alice.body());
        assertThat(bobAgain.body()).isEqualTo(bob.body());
        assertThat(repository.countByOrderNo(orderNo)).isEqualTo(2);
    }

    @Test
    void I1_anotherUserSendingTheSameIdempotencyKeyHeaderGetsTheirOwnExecution() throws Exception {
        String key = "H-" + run;
        HttpResponse<String> alice = send("alice", "POST", "/orders/by-header", order("HO-" + run, 1),
                "Idempotency-Key", key);
        HttpResponse<String> bob = send("bob", "POST", "/orders/by-header", order("HO-" + run, 1),
                "Idempotency-Key", key);

        assertThat(json(alice).get("user").asText()).isEqualTo("alice");
        assertThat(json(bob).get("user").asText()).isEqualTo("bob");
        assertThat(json(bob).get("id").asLong()).isNotEqualTo(json(alice).get("id").asLong());
        assertThat(bob.headers().firstValue("Idempotent-Replayed")).isEmpty();
        HttpResponse<String> bobAgain = send("bob", "POST", "/orders/by-header", order("HO-" + run, 1),
                "Idempotency-Key", key);
        assertThat(bobAgain.body()).isEqualTo(bob.body());
        assertThat(repository.countByOrderNo("HO-" + run)).isEqualTo(2);
    }

    @Test
    void I5_aReplayKeepsStatusBodyAndAllowListedHeadersButNeverTheCookieAndIsMarkedOnce() throws Exception {
        String orderNo = "R-" + run;
        HttpResponse<String> first = send("alice", "POST", "/orders", order(orderNo, 1));
        HttpResponse<String> replay = send("alice", "POST", "/orders", order(orderNo, 1));

        assertThat(first.headers().allValues("Set-Cookie")).hasSize(1);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.headers().allValues("Idempotent-Replayed")).containsExactly("true");
        assertThat(replay.headers().allValues("Set-Cookie")).isEmpty();
        assertThat(replay.headers().allValues("X-Internal-Note")).isEmpty();
        assertThat(replay.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
        assertThat(first.headers().allValues("Idempotent-Replayed")).isEmpty();
    }

    @Test
    void I5_aReplayedCachedFailureIsMarkedAsAReplayExactlyOnce() throws Exception {
        String orderNo = "F-" + run;
        int before = SecuredOrdersApplication.executions("reserve");
        HttpResponse<String> first = send("alice", "POST", "/orders/reserve", order(orderNo, 11));
        HttpResponse<String> replay = send("alice", "POST", "/orders/reserve", order(orderNo, 11));

        assertThat(first.statusCode()).isEqualTo(409);
        assertThat(first.headers().allValues("Idempotent-Replayed")).isEmpty();
        assertThat(replay.statusCode()).isEqualTo(409);
        assertThat(replay.headers().allValues("Idempotent-Replayed")).containsExactly("true");
        assertThat(SecuredOrdersApplication.executions("reserve")).isEqualTo(before + 1);
    }

    @Test
    void theCallersSecurityContextIsVisibleOnTimeoutWorkersAndAsyncThreads() throws Exception {
        HttpResponse<String> offloaded = send("bob", "GET", "/whoami/offload", null);
        HttpResponse<String> async = send("alice", "GET", "/whoami/async", null);

        assertThat(offloaded.body()).startsWith("bob on ").doesNotEndWith("http-nio");
        assertThat(offloaded.body()).doesNotContain("http-nio");
        assertThat(async.body()).startsWith("alice on ").doesNotContain("http-nio");
    }

    @Test
    void anAuthenticatedCallWhoseCallerCannotBeDeterminedFailsClosedAndRunsNothing() throws Exception {
        int before = SecuredOrdersApplication.executions("elsewhere");
        HttpResponse<String> response = send("alice", "POST", "/orders/elsewhere", order("E-" + run, 1));

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response).get("type").asText())
                .isEqualTo("urn:resilience-starter:problem:idempotency-scope-unavailable");
        assertThat(response.body()).doesNotContain("Stock").doesNotContain("pool-");
        assertThat(SecuredOrdersApplication.executions("elsewhere")).isEqualTo(before);
    }

    @Test
    void I1_anIdempotentCallOnTheApplicationsOwnPoolWithNothingCopiedFailsClosedAndRunsNothing() throws Exception {
        int before = SecuredOrdersApplication.executions("pool");
        // the pool's thread is created inside alice's request: nothing it inherits may stand for a caller
        HttpResponse<String> alice = send("alice", "POST", "/orders/pool", order("P-" + run, 1));
        HttpResponse<String> bob = send("bob", "POST", "/orders/pool", order("P-" + run, 1));
        HttpResponse<String> aliceAgain = send("alice", "POST", "/orders/pool", order("P-" + run, 1));

        for (HttpResponse<String> response : java.util.List.of(alice, bob, aliceAgain)) {
            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(json(response).get("type").asText())
                    .isEqualTo("urn:resilience-starter:problem:idempotency-scope-unavailable");
        }
        assertThat(SecuredOrdersApplication.executions("pool")).isEqualTo(before);
    }

    @Test
    void I1_onAPoolThatCarriesTheTraceContextEachUserKeepsTheirOwnScope() throws Exception {
        int before = SecuredOrdersApplication.executions("pool");
        HttpResponse<String> alice = send("alice", "POST", "/orders/ttl-pool", order("T-" + run, 1));
        HttpResponse<String> bob = send("bob", "POST", "/orders/ttl-pool", order("T-" + run, 1));
        HttpResponse<String> aliceAgain = send("alice", "POST", "/orders/ttl-pool", order("T-" + run, 1));

        assertThat(alice.statusCode()).isEqualTo(200);
        assertThat(bob.statusCode()).isEqualTo(200);
        assertThat(bob.headers().allValues("Idempotent-Replayed")).isEmpty();
        assertThat(json(bob).get("execution").asInt()).isNotEqualTo(json(alice).get("execution").asInt());
        assertThat(aliceAgain.body()).isEqualTo(alice.body());
        assertThat(SecuredOrdersApplication.executions("pool")).isEqualTo(before + 2);
    }
}
