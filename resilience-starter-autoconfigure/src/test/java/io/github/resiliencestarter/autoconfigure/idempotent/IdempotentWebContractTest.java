package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.idempotent.KeptAnswers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** {@code @Idempotent} over real HTTP; subclasses choose the real store. */
abstract class IdempotentWebContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();

    private final String run = TraceIds.generate().substring(0, 10);

    @LocalServerPort
    private int port;

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Overwrites the stored response of a key with garbage, as an attacker with store access could. */
    protected abstract void corruptResponse(String storedKey);

    /** Overwrites the stored state of a key with a value no writer produces. */
    protected abstract void corruptStatus(String storedKey);

    private static String storedKey(String orderNo) {
        return IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, "ORDER_CREATE", "", orderNo);
    }

    @Test
    void aTamperedRecordIsAClear409NeverA5xxAndNothingRunsAgain() throws Exception {
        String garbled = "G-" + run;
        String misstated = "M-" + run;
        assertThat(post("/i/orders", order(garbled, "1")).statusCode()).isEqualTo(200);
        assertThat(post("/i/orders", order(misstated, "1")).statusCode()).isEqualTo(200);
        corruptResponse(storedKey(garbled));
        corruptStatus(storedKey(misstated));
        int before = IdempotencyWebTestApplication.executions("orders");

        for (String orderNo : new String[] {garbled, misstated}) {
            HttpResponse<String> duplicate = post("/i/orders", order(orderNo, "1"));
            assertThat(duplicate.statusCode()).as(orderNo).isEqualTo(409);
            assertThat(JSON.readTree(duplicate.body()).get("type").asText()).endsWith("idempotency-record-corrupted");
            assertThat(duplicate.body()).doesNotContain("garbage");
        }
        assertThat(IdempotencyWebTestApplication.executions("orders")).isEqualTo(before);
    }

    private String order(String orderNo, String amount) {
        return "{\"orderNo\":\"" + orderNo + "\",\"userId\":7,\"amount\":" + amount + "}";
    }

    @Test
    void IP5_aDuplicateGetsTheFirstResponseMarkedAsReplayed() throws Exception {
        String orderNo = "A-" + run;
        HttpResponse<String> first = post("/i/orders", order(orderNo, "12.50"));
        HttpResponse<String> second = post("/i/orders", order(orderNo, "12.50"));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(JSON.readTree(second.body())).isEqualTo(JSON.readTree(first.body()));
    }

    @Test
    void I1_theSameKeyOnAnotherOperationIsAnotherRecord() throws Exception {
        String key = "shared-" + run;
        JsonNode viaHeader = JSON.readTree(post("/i/header", "{}", "Idempotency-Key", key).body());
        HttpResponse<String> order = post("/i/orders", order(key, "1"));
        assertThat(order.statusCode()).isEqualTo(200);
        assertThat(order.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(viaHeader.get("execution").asInt()).isPositive();
    }

    @Test
    void aRetryThatChangesOnlyAHeaderIsTheSameRequestAndReplays() throws Exception {
        for (String path : List.of("/i/attempt", "/i/attempt-api")) {
            String key = "attempt-" + path.length() + "-" + run;
            String endpoint = path.substring(3);
            HttpResponse<String> first = post(path, "{\"sku\":\"A\"}", "Idempotency-Key", key, "X-Retry-Attempt", "1");
            int executions = IdempotencyWebTestApplication.executions(endpoint);
            HttpResponse<String> retry = post(path, "{\"sku\":\"A\"}", "Idempotency-Key", key, "X-Retry-Attempt", "2");

            assertThat(first.statusCode()).as(path).isEqualTo(200);
            // the header value was part of the fingerprint: 422 for the client's own retry
            assertThat(retry.statusCode()).as(path).isEqualTo(200);
            assertThat(retry.headers().firstValue("Idempotent-Replayed")).as(path).hasValue("true");
            assertThat(JSON.readTree(retry.body()).get("attempt").asText()).as(path).isEqualTo("1");
            assertThat(IdempotencyWebTestApplication.executions(endpoint)).as(path).isEqualTo(executions);
            // the body still counts
            assertThat(post(path, "{\"sku\":\"B\"}", "Idempotency-Key", key).statusCode()).as(path).isEqualTo(422);
        }
    }

    @Test
    void theDraftsKeyFormsQuotedAndBareAreOneKeyAndMalformedOnesAre400() throws Exception {
        String key = "draft-" + run;
        int before = IdempotencyWebTestApplication.executions("header");
        HttpResponse<String> quoted = post("/i/header", "{}", "Idempotency-Key", "\"" + key + "\"");
        HttpResponse<String> bare = post("/i/header", "{}", "Idempotency-Key", key);

        assertThat(quoted.statusCode()).isEqualTo(200);
        // before: "k" and k were two keys, each executed
        assertThat(bare.headers().firstValue("Idempotent-Replayed")).as("the bare token is the same key").hasValue("true");
        // 255 characters inside the quotes: the limit is the key's, not its quotes'
        String longest = "L".repeat(250) + run.substring(0, 5);
        assertThat(post("/i/header", "{}", "Idempotency-Key", "\"" + longest + "\"").statusCode()).isEqualTo(200);
        for (String malformed : List.of("\"" + key, "\"\"", "\"a\\b\"", "\"" + key + "\" trailing")) {
            HttpResponse<String> refused = post("/i/header", "{}", "Idempotency-Key", malformed);
            assertThat(refused.statusCode()).as(malformed).isEqualTo(400);
            assertThat(JSON.readTree(refused.body()).get("type").asText()).endsWith("idempotency-key-invalid");
        }
        assertThat(post("/i/header", "{}", "Idempotency-Key", key, "Idempotency-Key", key).statusCode())
                .as("two header fields").isEqualTo(400);
        assertThat(IdempotencyWebTestApplication.executions("header")).isEqualTo(before + 2);
    }

    @Test
    void IP5_aClientErrorIsReplayedToTheRetryAndA409OrA5xxReleasesTheKey() throws Exception {
        for (String endpoint : List.of("missing", "out-of-stock", "conflict", "unavailable", "missing-released")) {
            String key = endpoint + "-" + run;
            int before = IdempotencyWebTestApplication.executions(endpoint);
            HttpResponse<String> first = post("/i/" + endpoint, "{}", "Idempotency-Key", key);
            HttpResponse<String> retry = post("/i/" + endpoint, "{}", "Idempotency-Key", key);

            assertThat(retry.statusCode()).as(endpoint).isEqualTo(first.statusCode());
            boolean clientError = KeptAnswers.keepsClientError(first.statusCode()) && !endpoint.endsWith("released");
            // before: every failure released the key, and a 404 ran the method once per retry
            assertThat(IdempotencyWebTestApplication.executions(endpoint)).as(endpoint + " executions")
                    .isEqualTo(before + (clientError ? 1 : 2));
            assertThat(retry.headers().firstValue("Idempotent-Replayed")).as(endpoint)
                    .isEqualTo(clientError ? java.util.Optional.of("true") : java.util.Optional.empty());
        }
        // the application's own @ResponseStatus exception comes back as itself: 422, with the first detail
        HttpResponse<String> replayed = post("/i/out-of-stock", "{}", "Idempotency-Key", "out-of-stock-" + run);
        assertThat(replayed.statusCode()).isEqualTo(422);
    }

    @Test
    void theSameKeyWithAnotherPayloadIs422AndNotExecuted() throws Exception {
        String orderNo = "B-" + run;
        post("/i/orders", order(orderNo, "10"));
        int before = IdempotencyWebTestApplication.executions("orders");
        HttpResponse<String> reused = post("/i/orders", order(orderNo, "99"));

        assertThat(reused.statusCode()).isEqualTo(422);
        JsonNode problem = JSON.readTree(reused.body());
        assertThat(problem.get("type").asText()).endsWith("idempotency-key-reused");
        assertThat(problem.get("traceId").asText()).isNotBlank();
        assertThat(IdempotencyWebTestApplication.executions("orders")).isEqualTo(before);
    }

    @Test
    void keyValidationAnswers400WithoutExecuting() throws Exception {
        int before = IdempotencyWebTestApplication.executions("header");
        List<HttpResponse<String>> responses = new ArrayList<>();
        responses.add(post("/i/header", "{}"));
        responses.add(post("/i/header", "{}", "Idempotency-Key", "   "));
        responses.add(post("/i/header", "{}", "Idempotency-Key", "k".repeat(256)));
        responses.add(post("/i/header", "{}", "Idempotency-Key", "a\tb"));
        responses.add(post("/i/null-key", "{\"userId\":1,\"amount\":1}"));
        for (HttpResponse<String> response : responses) {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
            assertThat(JSON.readTree(response.body()).get("type").asText()).endsWith("idempotency-key-invalid");
        }
        assertThat(IdempotencyWebTestApplication.executions("header")).isEqualTo(before);
        assertThat(IdempotencyWebTestApplication.executions("null-key")).isZero();
    }

    @Test
    void nonAsciiAndLongKeysWorkWithoutColliding() throws Exception {
        // HTTP headers are ASCII, so the non-ASCII keys travel in the body (key = #request.orderNo)
        String a = "订单-" + run + "-" + "é".repeat(200);
        String b = "订单-" + run + "-" + "é".repeat(199) + "e";
        JsonNode first = JSON.readTree(post("/i/orders", order(a, "1")).body());
        JsonNode second = JSON.readTree(post("/i/orders", order(b, "1")).body());
        HttpResponse<String> replay = post("/i/orders", order(a, "1"));

        assertThat(first.get("orderNo").asText()).isEqualTo(a);
        assertThat(second.get("orderNo").asText()).isEqualTo(b);
        assertThat(first.get("execution")).isNotEqualTo(second.get("execution"));
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(JSON.readTree(replay.body())).isEqualTo(first);
    }

    @Test
    void oneUserCannotReplayAnotherUsersResponseWithTheSameKey() throws Exception {
        String key = "pay-" + run;
        JsonNode alice = JSON.readTree(post("/i/header", "{}", "Idempotency-Key", key, "X-Test-User", "alice").body());
        HttpResponse<String> bob = post("/i/header", "{}", "Idempotency-Key", key, "X-Test-User", "bob");

        assertThat(alice.get("user").asText()).isEqualTo("alice");
        assertThat(bob.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(JSON.readTree(bob.body()).get("user").asText()).isEqualTo("bob");
        HttpResponse<String> aliceAgain = post("/i/header", "{}", "Idempotency-Key", key, "X-Test-User", "alice");
        assertThat(JSON.readTree(aliceAgain.body())).isEqualTo(alice);
    }

    @Test
    void aDuplicateOfARunningCallIsRejectedWith409AndRetryAfter() throws Exception {
        String key = "slow-" + run;
        IdempotencyWebTestApplication.slowStarted = new CountDownLatch(1);
        IdempotencyWebTestApplication.slowReleased = new CountDownLatch(1);
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> {
            try {
                return post("/i/slow", "{}", "Idempotency-Key", key);
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        try {
            // the first call holds its claim until released: the duplicate meets it in progress
            assertThat(IdempotencyWebTestApplication.slowStarted.await(30, TimeUnit.SECONDS)).isTrue();
            long sent = System.nanoTime();
            HttpResponse<String> duplicate = post("/i/slow", "{}", "Idempotency-Key", key);

            assertThat(duplicate.statusCode()).isEqualTo(409);
            // rejected, not answered after waiting as long as a WAIT duplicate would
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(IdempotencyConfig.DEFAULT_WAIT_TIMEOUT);
            assertThat(duplicate.headers().firstValue("Retry-After")).isPresent();
        } finally {
            IdempotencyWebTestApplication.slowReleased.countDown();
        }
        HttpResponse<String> completed = first.get(30, TimeUnit.SECONDS);
        assertThat(completed.statusCode()).isEqualTo(200);
        HttpResponse<String> after = post("/i/slow", "{}", "Idempotency-Key", key);
        assertThat(after.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(JSON.readTree(after.body())).isEqualTo(JSON.readTree(completed.body()));
    }

    @Test
    void aResponseEntityReplaysWithItsStatusHeadersAndBody() throws Exception {
        String orderNo = "E-" + run;
        HttpResponse<String> first = post("/i/entity", order(orderNo, "5"));
        HttpResponse<String> replay = post("/i/entity", order(orderNo, "5"));

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.headers().firstValue("Location")).hasValue("/orders/" + orderNo);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(JSON.readTree(replay.body())).isEqualTo(JSON.readTree(first.body()));
    }

    @Test
    void aKeyExpressionFailingOnTheServerIsA500NamingNothingInternalAndRunsNothing() throws Exception {
        HttpResponse<String> response = post("/i/broken-key", order("B-" + run, "1"),
                ResilienceHeaders.TRACE_ID, "broken-key-" + run);

        assertThat(response.statusCode()).isEqualTo(500);
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("type").asText()).endsWith("idempotency-key-unavailable");
        assertThat(problem.get("traceId").asText()).isEqualTo("broken-key-" + run);
        assertThat(response.body()).doesNotContain("Endpoints", "brokenKey", "substring", "Exception",
                IdempotencyWebTestApplication.class.getPackageName());
        assertThat(IdempotencyWebTestApplication.executions("broken-key")).isZero();
    }
}
