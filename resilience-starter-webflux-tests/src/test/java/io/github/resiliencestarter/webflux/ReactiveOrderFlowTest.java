package io.github.resiliencestarter.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.testsupport.RealServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import reactor.blockhound.BlockingOperationError;

/**
 * The order flow on a real WebFlux server (Netty) with the real Redis store and Spring Security's
 * reactive chain: replay, 409, 422, 504, exactly one execution of concurrent duplicates, a Mono
 * cancelled at its deadline, the budget and trace id reaching a downstream {@code WebClient} call,
 * and keys scoped per authenticated caller. BlockHound runs in this JVM (the module's
 * dependencies), so a blocking call of the starter's on an event loop would fail these tests.
 */
@SpringBootTest(classes = ReactiveOrdersApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.main.web-application-type=reactive", "resilience.idempotent.store=redis"})
class ReactiveOrderFlowTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    private int port;

    @Autowired
    private IdempotencyStore store;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
    }

    @BeforeEach
    void reset() {
        ReactiveOrdersApplication.Orders.EXECUTIONS.set(0);
        ReactiveOrdersApplication.Orders.gate = new CountDownLatch(0);
        ReactiveOrdersApplication.Orders.neverCancelled = new CountDownLatch(1);
    }

    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20));
        for (int i = 0; i < headers.length; i += 2) {
            builder.header(headers[i], headers[i + 1]);
        }
        return builder;
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        return http.send(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> postAsync(String path, String body, String... headers) {
        return http.sendAsync(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        return http.send(request(path, headers).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aBlockingStoreCallOnTheEventLoopFailsLoudlyUnderBlockHound() throws Exception {
        ReactiveOrdersApplication.Orders.BLOCKING_FAILURE.set(null);
        HttpResponse<String> response = get("/blocks-the-event-loop");

        // every other test of this module passing under the same agent means the starter never does this
        // an event loop, or the parallel scheduler the security chain hands the request to
        assertThat(ReactiveOrdersApplication.Orders.BLOCKED_ON_NON_BLOCKING_THREAD.get()).isTrue();
        assertThat(ReactiveOrdersApplication.Orders.BLOCKING_FAILURE.get()).isInstanceOf(BlockingOperationError.class);
        assertThat(response.statusCode()).isEqualTo(500);
    }

    @Test
    void theStoreIsTheRealRedisOne() {
        assertThat(store).isInstanceOf(RedisIdempotencyStore.class);
    }

    @Test
    void aDuplicateIsReplayedWithTheSameBodyAndMarkedWithoutRunningAgain() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpResponse<String> first = post("/orders", "{\"item\":\"book\",\"amount\":2}", "Idempotency-Key", key);
        HttpResponse<String> replay = post("/orders", "{\"item\":\"book\",\"amount\":2}", "Idempotency-Key", key);

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(JSON.parseObject(replay.body())).isEqualTo(JSON.parseObject(first.body()));
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(ReactiveOrdersApplication.Orders.EXECUTIONS.get()).isEqualTo(1);
    }

    @Test
    void theDraftsKeyFormsQuotedAndBareAreOneKeyAndMalformedOnesAre400() throws Exception {
        String key = UUID.randomUUID().toString();
        String body = "{\"item\":\"pen\",\"amount\":1}";
        HttpResponse<String> quoted = post("/orders", body, "Idempotency-Key", "\"" + key + "\"");
        HttpResponse<String> bare = post("/orders", body, "Idempotency-Key", key);

        assertThat(quoted.statusCode()).isEqualTo(200);
        assertThat(bare.headers().firstValue("Idempotent-Replayed")).as("the bare token is the same key").hasValue("true");
        for (String malformed : List.of("\"" + key, "\"\"", "\"a\\b\"")) {
            assertThat(post("/orders", body, "Idempotency-Key", malformed).statusCode()).as(malformed).isEqualTo(400);
        }
        assertThat(post("/orders", body, "Idempotency-Key", "a", "Idempotency-Key", "b").statusCode())
                .as("two header fields").isEqualTo(400);
        assertThat(ReactiveOrdersApplication.Orders.EXECUTIONS.get()).isEqualTo(1);
    }

    @Test
    void theSameKeyWithAnotherPayloadIsA422Problem() throws Exception {
        String key = UUID.randomUUID().toString();
        post("/orders", "{\"item\":\"book\",\"amount\":2}", "Idempotency-Key", key);
        HttpResponse<String> reused = post("/orders", "{\"item\":\"book\",\"amount\":3}", "Idempotency-Key", key);

        assertThat(reused.statusCode()).isEqualTo(422);
        assertThat(reused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(JSON.parseObject(reused.body()).getString("traceId")).isNotBlank();
        assertThat(ReactiveOrdersApplication.Orders.EXECUTIONS.get()).isEqualTo(1);
    }

    @Test
    void aDuplicateOfWorkInProgressIsA409ProblemWhenTheMethodRejects() throws Exception {
        String key = UUID.randomUUID().toString();
        ReactiveOrdersApplication.Orders.gate = new CountDownLatch(1);
        CompletableFuture<HttpResponse<String>> first = postAsync("/orders/reject", "{\"item\":\"pen\",\"amount\":1}",
                "Idempotency-Key", key);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ReactiveOrdersApplication.Orders.EXECUTIONS.get() == 0 && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        HttpResponse<String> duplicate = post("/orders/reject", "{\"item\":\"pen\",\"amount\":1}",
                "Idempotency-Key", key);
        ReactiveOrdersApplication.Orders.gate.countDown();

        assertThat(duplicate.statusCode()).isEqualTo(409);
        assertThat(duplicate.headers().firstValue("Retry-After")).isPresent();
        assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(ReactiveOrdersApplication.Orders.EXECUTIONS.get()).isEqualTo(1);
    }

    @Test
    void fiftyConcurrentDuplicatesExecuteExactlyOnceAndAllGetItsAnswer() throws Exception {
        for (int run = 0; run < 3; run++) {
            ReactiveOrdersApplication.Orders.EXECUTIONS.set(0);
            ReactiveOrdersApplication.Orders.gate = new CountDownLatch(1);
            String key = UUID.randomUUID().toString();
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                calls.add(postAsync("/orders", "{\"item\":\"lamp\",\"amount\":50}", "Idempotency-Key", key));
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ReactiveOrdersApplication.Orders.EXECUTIONS.get() == 0 && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            ReactiveOrdersApplication.Orders.gate.countDown();
            JSONObject expected = null;
            for (CompletableFuture<HttpResponse<String>> call : calls) {
                HttpResponse<String> response = call.get(30, TimeUnit.SECONDS);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                JSONObject body = JSON.parseObject(response.body());
                if (expected == null) {
                    expected = body;
                }
                assertThat(body).isEqualTo(expected);
            }
            assertThat(ReactiveOrdersApplication.Orders.EXECUTIONS.get()).as("executions in run " + run).isEqualTo(1);
        }
    }

    @Test
    void aMonoThatNeverCompletesIsCancelledAtItsDeadlineAndAnswers504() throws Exception {
        long started = System.nanoTime();
        HttpResponse<String> response = get("/never");

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
        assertThat(JSON.parseObject(response.body()).getString("traceId")).isNotBlank();
        assertThat(ReactiveOrdersApplication.Orders.neverCancelled.await(5, TimeUnit.SECONDS))
                .as("the handler's Mono was cancelled").isTrue();
    }

    @Test
    void aDownstreamWebClientCallSeesTheShrunkenBudgetAndTheTraceId() throws Exception {
        HttpResponse<String> response = get("/calls-downstream", ResilienceHeaders.TIMEOUT_BUDGET_MS, "2000",
                ResilienceHeaders.TRACE_ID, "reactive-trace-1");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JSONObject seen = JSON.parseObject(response.body());
        assertThat(seen.getString("traceId")).isEqualTo("reactive-trace-1");
        assertThat(Long.parseLong(seen.getString("budget"))).isPositive().isLessThan(2000);
        assertThat(response.headers().firstValue(ResilienceHeaders.TRACE_ID)).hasValue("reactive-trace-1");
    }

    @Test
    void aSpentBudgetIsA504BeforeTheHandlerRuns() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpResponse<String> response = post("/orders", "{\"item\":\"cup\",\"amount\":1}", "Idempotency-Key", key,
                ResilienceHeaders.TIMEOUT_BUDGET_MS, "0");

        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(ReactiveOrdersApplication.Orders.EXECUTIONS.get()).isZero();
    }

    @Test
    void I1_anotherUserSendingTheSameKeyAndPayloadGetsTheirOwnExecution() throws Exception {
        String key = UUID.randomUUID().toString();
        String body = "{\"item\":\"desk\",\"amount\":1}";
        HttpResponse<String> alice = post("/orders", body, "Idempotency-Key", key,
                "Authorization", basic("alice", "alice-pw"));
        HttpResponse<String> bob = post("/orders", body, "Idempotency-Key", key,
                "Authorization", basic("bob", "bob-pw"));
        HttpResponse<String> aliceAgain = post("/orders", body, "Idempotency-Key", key,
                "Authorization", basic("alice", "alice-pw"));

        assertThat(alice.statusCode()).isEqualTo(200);
        assertThat(bob.statusCode()).isEqualTo(200);
        assertThat(bob.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(JSON.parseObject(bob.body()).getIntValue("execution"))
                .isNotEqualTo(JSON.parseObject(alice.body()).getIntValue("execution"));
        assertThat(aliceAgain.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(JSON.parseObject(aliceAgain.body())).isEqualTo(JSON.parseObject(alice.body()));
        assertThat(ReactiveOrdersApplication.Orders.EXECUTIONS.get()).isEqualTo(2);
    }
}
