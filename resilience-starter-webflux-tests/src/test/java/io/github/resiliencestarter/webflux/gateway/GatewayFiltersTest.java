package io.github.resiliencestarter.webflux.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.testsupport.RealServers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A real Spring Cloud Gateway (reactive, behind Spring Security's reactive chain) routing to a
 * real HTTP service on loopback, its routes declared in properties as users write them, with the
 * {@code Deadline} and {@code IdempotencyKey} filters and the Redis store: duplicates through the
 * gateway reach the service once and are answered from the store, bytes and headers as they were
 * (a gzip answer's encoding, {@code Vary}, {@code Retry-After}); a reused key, a missing key, a
 * spent budget, a body over the limit are problems at the edge; an answer the key does not keep (a
 * 5xx, 401, 403, 408, 409, 425, 429) releases it; an answer over the limit is passed through and not
 * kept; a slow service is cut off at the caller's budget; the service sees the trace id and a
 * smaller budget.
 */
@SpringBootTest(classes = GatewayFiltersTest.GatewayApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.main.web-application-type=reactive", "resilience.idempotent.store=redis",
            "resilience.idempotent.max-request-bytes=" + GatewayFiltersTest.LIMIT,
            "resilience.idempotent.max-response-bytes=" + GatewayFiltersTest.LIMIT})
class GatewayFiltersTest {

    /** The request and response limits of these tests. */
    static final int LIMIT = 64 * 1024;

    private static final HttpServer SERVICE = service();

    /** Requests the service received, answered or not, by path. */
    private static final Map<String, AtomicInteger> RECEIVED = new ConcurrentHashMap<>();

    /** Effects of the service: one per order it executed, by path. */
    private static final Map<String, AtomicInteger> EXECUTED = new ConcurrentHashMap<>();

    /** Headers the service saw: "trace budget" per order. */
    private static final List<String> SEEN = java.util.Collections.synchronizedList(new ArrayList<>());

    private static final AtomicInteger FLAKY_LEFT = new AtomicInteger();

    private static volatile CountDownLatch slowRelease = new CountDownLatch(1);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    private int port;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class GatewayApplication {

        @Bean
        SecurityWebFilterChain gatewaySecurity(ServerHttpSecurity http) {
            return http.csrf(ServerHttpSecurity.CsrfSpec::disable)
                    .authorizeExchange(exchanges -> exchanges.anyExchange().permitAll()).build();
        }
    }

    @DynamicPropertySource
    static void routes(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
        String routes = "spring.cloud.gateway.server.webflux.routes[0].";
        registry.add(routes + "id", () -> "orders");
        registry.add(routes + "uri", () -> "http://127.0.0.1:" + SERVICE.getAddress().getPort());
        registry.add(routes + "predicates[0]", () -> "Path=/orders/**");
        registry.add(routes + "filters[0]", () -> "Deadline=5s");
        registry.add(routes + "filters[1]", () -> "IdempotencyKey");
    }

    private static HttpServer service() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(Executors.newFixedThreadPool(8));
            server.createContext("/orders", GatewayFiltersTest::order);
            server.start();
            return server;
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static void order(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        int received = RECEIVED.computeIfAbsent(path, any -> new AtomicInteger()).incrementAndGet();
        SEEN.add(exchange.getRequestHeaders().getFirst("X-Trace-Id") + " "
                + exchange.getRequestHeaders().getFirst("X-Timeout-Budget-Ms"));
        if (path.endsWith("/slow")) {
            try {
                slowRelease.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        if (path.endsWith("/flaky") && FLAKY_LEFT.getAndDecrement() > 0) {
            answer(exchange, 503, "{\"error\":\"overloaded\"}");
            return;
        }
        int status = path.contains("/status-") ? Integer.parseInt(path.substring(path.indexOf("/status-") + 8)) : 0;
        if (status != 0 && received == 1) {
            // the first request meets the status (with Retry-After, as a refusal to wait carries it); later ones run
            exchange.getResponseHeaders().add("Retry-After", "3");
            answer(exchange, status, "{\"refused\":" + status + "}");
            return;
        }
        int execution = EXECUTED.computeIfAbsent(path, any -> new AtomicInteger()).incrementAndGet();
        if (path.endsWith("/gzip")) {
            java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
            try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(zipped)) {
                gzip.write(("{\"execution\":" + execution + ",\"note\":\"" + "tea ".repeat(200) + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
            }
            exchange.getResponseHeaders().add("Content-Encoding", "gzip");
            exchange.getResponseHeaders().add("Vary", "Accept-Encoding");
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(201, zipped.size());
            exchange.getResponseBody().write(zipped.toByteArray());
            exchange.close();
            return;
        }
        if (path.endsWith("/accepted")) {
            exchange.getResponseHeaders().add("Retry-After", "7");
            answer(exchange, 202, "{\"execution\":" + execution + "}");
            return;
        }
        if (path.endsWith("/large")) {
            answer(exchange, 201, "{\"execution\":" + execution + ",\"pad\":\"" + "x".repeat(3 * LIMIT) + "\"}");
            return;
        }
        exchange.getResponseHeaders().add("Location", path + "/" + execution);
        exchange.getResponseHeaders().add("X-Internal-Node", "node-7");
        answer(exchange, 201, "{\"execution\":" + execution + ",\"order\":" + body + "}");
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @AfterEach
    void release() {
        slowRelease.countDown();
        slowRelease = new CountDownLatch(1);
    }

    @AfterAll
    static void stopService() {
        SERVICE.stop(0);
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int executed(String path) {
        return EXECUTED.computeIfAbsent(path, any -> new AtomicInteger()).get();
    }

    private static int received(String path) {
        return RECEIVED.computeIfAbsent(path, any -> new AtomicInteger()).get();
    }

    @Test
    void aDuplicateReachesTheServiceOnceAndIsAnsweredFromTheStore() throws Exception {
        String path = "/orders/" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();

        HttpResponse<String> first = post(path, "{\"item\":\"tea\"}", "Idempotency-Key", key);
        HttpResponse<String> second = post(path, "{\"item\":\"tea\"}", "Idempotency-Key", key);

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(second.statusCode()).isEqualTo(201);
        assertThat(second.body()).isEqualTo(first.body()).contains("\"execution\":1");
        assertThat(second.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
        assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
        // only allow-listed headers are stored for replay
        assertThat(second.headers().firstValue("X-Internal-Node")).isEmpty();
        assertThat(executed(path)).isEqualTo(1);
    }

    @Test
    void concurrentDuplicatesReachTheServiceOnce() throws Exception {
        String path = "/orders/" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return post(path, "{\"item\":\"rice\"}", "Idempotency-Key", key).statusCode();
                } catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            }));
        }
        for (CompletableFuture<Integer> call : calls) {
            // a duplicate that arrives while the first runs waits for its answer, or hears 409
            assertThat(call.get(30, TimeUnit.SECONDS)).isIn(201, 409);
        }
        assertThat(executed(path)).isEqualTo(1);
    }

    @Test
    void aKeyReusedWithAnotherBodyIsA422AndIsNotForwarded() throws Exception {
        String path = "/orders/" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        post(path, "{\"item\":\"salt\"}", "Idempotency-Key", key);

        HttpResponse<String> reused = post(path, "{\"item\":\"sugar\"}", "Idempotency-Key", key);

        assertThat(reused.statusCode()).isEqualTo(422);
        assertThat(reused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(executed(path)).isEqualTo(1);
    }

    @Test
    void aChangeWithoutTheKeyIsA400AndIsNotForwarded() throws Exception {
        String path = "/orders/" + UUID.randomUUID();

        HttpResponse<String> missing = post(path, "{\"item\":\"oil\"}");
        HttpResponse<String> malformed = post(path, "{\"item\":\"oil\"}", "Idempotency-Key", "\"unclosed");

        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.body()).contains("Idempotency-Key").doesNotContain("Exception");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(executed(path)).isZero();
    }

    @Test
    void aServerErrorReleasesTheKeySoTheClientsRetryIsForwarded() throws Exception {
        String path = "/orders/" + UUID.randomUUID() + "/flaky";
        String key = UUID.randomUUID().toString();
        FLAKY_LEFT.set(1);

        HttpResponse<String> failed = post(path, "{\"item\":\"flour\"}", "Idempotency-Key", key);
        HttpResponse<String> retried = post(path, "{\"item\":\"flour\"}", "Idempotency-Key", key);
        HttpResponse<String> duplicate = post(path, "{\"item\":\"flour\"}", "Idempotency-Key", key);

        assertThat(failed.statusCode()).isEqualTo(503);
        assertThat(retried.statusCode()).isEqualTo(201);
        assertThat(duplicate.body()).isEqualTo(retried.body());
        assertThat(executed(path)).isEqualTo(1);
    }

    @Test
    void aSpentBudgetIsA504AtTheEdge() throws Exception {
        String path = "/orders/" + UUID.randomUUID();
        SEEN.clear();

        // 1 ms: less than the margin kept back for the hop
        HttpResponse<String> spent = post(path, "{\"item\":\"milk\"}", "Idempotency-Key", UUID.randomUUID().toString(),
                "X-Timeout-Budget-Ms", "1");

        assertThat(spent.statusCode()).isEqualTo(504);
        assertThat(spent.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(SEEN).isEmpty();
        assertThat(executed(path)).isZero();
    }

    @Test
    void aSlowServiceIsCutOffAtTheCallersBudget() throws Exception {
        String path = "/orders/" + UUID.randomUUID() + "/slow";
        long started = System.nanoTime();

        HttpResponse<String> late = post(path, "{\"item\":\"bread\"}", "Idempotency-Key",
                UUID.randomUUID().toString(), "X-Timeout-Budget-Ms", "500");

        assertThat(late.statusCode()).isEqualTo(504);
        // 500 ms against a service held for 20 s: generous bound
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void theServiceSeesTheTraceIdAndASmallerBudget() throws Exception {
        String path = "/orders/" + UUID.randomUUID();
        SEEN.clear();

        post(path, "{\"item\":\"eggs\"}", "Idempotency-Key", UUID.randomUUID().toString(), "X-Trace-Id",
                "gateway-trace-1", "X-Timeout-Budget-Ms", "4000");

        assertThat(SEEN).hasSize(1);
        String[] seen = SEEN.get(0).split(" ");
        assertThat(seen[0]).isEqualTo("gateway-trace-1");
        assertThat(Long.parseLong(seen[1])).isPositive().isLessThan(4000);
    }

    @Test
    void IP5_anAnswerTheKeyDoesNotKeepReleasesItSoTheClientsRetryIsForwarded() throws Exception {
        for (int status : new int[] {401, 403, 408, 409, 425, 429}) {
            String path = "/orders/" + UUID.randomUUID() + "/status-" + status;
            String key = UUID.randomUUID().toString();

            HttpResponse<String> refused = post(path, "{\"item\":\"jam\"}", "Idempotency-Key", key);
            HttpResponse<String> retried = post(path, "{\"item\":\"jam\"}", "Idempotency-Key", key);

            assertThat(refused.statusCode()).as("the service's own %d", status).isEqualTo(status);
            assertThat(retried.statusCode()).as("the retry after a %d", status).isEqualTo(201);
            assertThat(retried.headers().firstValue("Idempotent-Replayed")).as("after %d", status).isEmpty();
            assertThat(received(path)).as("requests forwarded after a %d", status).isEqualTo(2);
        }
    }

    @Test
    void IP5_aClientErrorTheSameRequestWouldMeetAgainIsKeptAndReplayed() throws Exception {
        String path = "/orders/" + UUID.randomUUID() + "/status-422";
        String key = UUID.randomUUID().toString();

        HttpResponse<String> invalid = post(path, "{\"item\":\"ice\"}", "Idempotency-Key", key);
        HttpResponse<String> duplicate = post(path, "{\"item\":\"ice\"}", "Idempotency-Key", key);

        assertThat(invalid.statusCode()).isEqualTo(422);
        assertThat(duplicate.statusCode()).isEqualTo(422);
        assertThat(duplicate.body()).isEqualTo(invalid.body());
        assertThat(duplicate.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(received(path)).isEqualTo(1);
    }

    @Test
    void IP5_aGzipAnswerIsReplayedByteForByteWithItsEncodingVaryAndRetryAfter() throws Exception {
        String path = "/orders/" + UUID.randomUUID() + "/gzip";
        String key = UUID.randomUUID().toString();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .header("Accept-Encoding", "gzip").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"tea\"}")).build();

        HttpResponse<byte[]> first = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> replay = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        String acceptedPath = "/orders/" + UUID.randomUUID() + "/accepted";
        String acceptedKey = UUID.randomUUID().toString();
        post(acceptedPath, "{}", "Idempotency-Key", acceptedKey);
        HttpResponse<String> acceptedReplay = post(acceptedPath, "{}", "Idempotency-Key", acceptedKey);

        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(replay.headers().firstValue("Vary")).hasValue("Accept-Encoding");
        try (java.util.zip.GZIPInputStream unzipped = new java.util.zip.GZIPInputStream(
                new java.io.ByteArrayInputStream(replay.body()))) {
            assertThat(new String(unzipped.readAllBytes(), StandardCharsets.UTF_8)).startsWith("{\"execution\":1,");
        }
        assertThat(acceptedReplay.statusCode()).isEqualTo(202);
        assertThat(acceptedReplay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(acceptedReplay.headers().firstValue("Retry-After")).hasValue("7");
        assertThat(received(path)).isEqualTo(1);
    }

    @Test
    void aKeyedBodyOverTheLimitIsA413AndNothingIsForwardedWithOrWithoutItsLength() throws Exception {
        String path = "/orders/" + UUID.randomUUID();
        String large = "{\"pad\":\"" + "y".repeat(LIMIT + 1) + "\"}";
        byte[] chunk = large.getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> sized = post(path, large, "Idempotency-Key", UUID.randomUUID().toString());
        // no Content-Length: the body arrives chunked, and only reading it finds the limit
        HttpResponse<String> chunked = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofByteArray(chunk)))
                .build(), HttpResponse.BodyHandlers.ofString());

        for (HttpResponse<String> refused : List.of(sized, chunked)) {
            assertThat(refused.statusCode()).isEqualTo(413);
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(refused.body()).contains("idempotent-payload-too-large").doesNotContain("Exception");
        }
        assertThat(received(path)).isZero();
    }

    @Test
    void anAnswerOverTheLimitReachesTheClientWholeAndADuplicateIsRefusedNotForwarded() throws Exception {
        String path = "/orders/" + UUID.randomUUID() + "/large";
        String key = UUID.randomUUID().toString();

        HttpResponse<String> first = post(path, "{\"item\":\"rice\"}", "Idempotency-Key", key);
        HttpResponse<String> duplicate = post(path, "{\"item\":\"rice\"}", "Idempotency-Key", key);

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(first.body()).startsWith("{\"execution\":1,").hasSizeGreaterThan(3 * LIMIT);
        assertThat(duplicate.statusCode()).isEqualTo(409);
        assertThat(duplicate.body()).contains("idempotent-response-unavailable");
        assertThat(received(path)).isEqualTo(1);
    }
}
