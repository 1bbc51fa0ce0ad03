package io.github.resiliencestarter.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.tracing.Tracer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * Issue 48, item 1: in an application traced with Micrometer Tracing (every request sampled), one
 * request has one trace id: the tracer's, in the MDC, in the starter's context and
 * {@code X-Trace-Id}, under {@code @Timeout} (on a timeout worker, for Spring MVC), and downstream
 * in the tracer's own {@code traceparent}; each retry attempt is a span of its own. A subclass
 * names the web stack (its application) and the bridge.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestPropertySource(properties = {"management.tracing.sampling.probability=1.0",
    // Boot 3.5's tests switch tracing off unless asked
    "spring.test.observability.auto-configure=true"})
abstract class OneTraceIdContract {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    private final HttpClient http = HttpClient.newHttpClient();

    private final List<Map<String, List<String>>> downstreamHeaders = new CopyOnWriteArrayList<>();

    private HttpServer downstream;

    @LocalServerPort
    private int port;

    @Autowired
    private Tracer tracer;

    /** The bridge this run is about. */
    abstract Class<? extends Tracer> bridge();

    @BeforeAll
    void startDownstream() throws Exception {
        downstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        downstream.createContext("/stock", exchange -> {
            downstreamHeaders.add(Map.copyOf(exchange.getRequestHeaders()));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        downstream.start();
    }

    @AfterAll
    void stopDownstream() {
        downstream.stop(0);
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String traceIdOf(String traceparent) {
        return traceparent.split("-")[1];
    }

    @Test
    void theTracerIsTheBridgeThisRunNames() {
        assertThat(tracer).isInstanceOf(bridge());
    }

    @Test
    void aPlainRequestHasTheTracersTraceIdEverywhere() throws Exception {
        HttpResponse<String> answer = get("/plain");

        String id = answer.headers().firstValue("X-Trace-Id").orElseThrow();
        assertThat(answer.body()).contains("\"tracer\":\"" + id + "\"", "\"mdc\":\"" + id + "\"",
                "\"starter\":\"" + id + "\"");
    }

    @Test
    void aRequestCarryingATraceparentKeepsItsTraceIdEverywhere() throws Exception {
        HttpResponse<String> answer = get("/plain", "traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01");

        assertThat(answer.headers().firstValue("X-Trace-Id")).contains(TRACE_ID);
        assertThat(answer.body()).contains("\"tracer\":\"" + TRACE_ID + "\"", "\"mdc\":\"" + TRACE_ID + "\"",
                "\"starter\":\"" + TRACE_ID + "\"");
    }

    @Test
    void underTimeoutTheSpanIsCurrentAndTheDownstreamCallContinuesTheTrace() throws Exception {
        downstreamHeaders.clear();
        String target = "http://127.0.0.1:" + downstream.getAddress().getPort() + "/stock";

        HttpResponse<String> answer = get("/offloaded?downstream=" + target);

        assertThat(answer.statusCode()).isEqualTo(200);
        String id = answer.headers().firstValue("X-Trace-Id").orElseThrow();
        assertThat(answer.body()).contains("\"tracer\":\"" + id + "\"", "\"mdc\":\"" + id + "\"",
                "\"starter\":\"" + id + "\"");
        assertThat(downstreamHeaders).hasSize(1);
        Map<String, List<String>> sent = downstreamHeaders.get(0);
        assertThat(sent.get("Traceparent")).as("the tracer's own propagation, downstream, among %s", sent.keySet()).isNotNull();
        assertThat(traceIdOf(sent.get("Traceparent").get(0))).isEqualTo(id);
        assertThat(sent.get("X-trace-id")).containsExactly(id);
    }

    @Test
    void eachRetryAttemptIsASpanOfItsOwnUnderTheRequestsSpan() throws Exception {
        HttpResponse<String> answer = get("/retried");

        assertThat(answer.statusCode()).isEqualTo(200);
        String id = answer.headers().firstValue("X-Trace-Id").orElseThrow();
        List<FinishedSpan> attempts = FinishedSpans.ALL.stream()
                .filter(span -> id.equals(span.traceId()) && span.tags().containsKey("resilience.retry.attempt"))
                .sorted(Comparator.comparing(span -> span.tags().get("resilience.retry.attempt"))).toList();
        assertThat(attempts).extracting(span -> span.tags().get("resilience.retry.attempt"))
                .containsExactly("1", "2", "3");
        assertThat(attempts).extracting(span -> span.tags().get("http.request.resend_count"))
                .containsExactly(null, "1", "2");
        assertThat(attempts).extracting(FinishedSpan::failed).containsExactly(true, true, false);
        assertThat(attempts).extracting(FinishedSpan::parentId).as("children of one span").containsOnly(
                attempts.get(0).parentId()).doesNotContainNull();
        // the decisions between the attempts are events on the span the attempts belong to
        FinishedSpan parent = FinishedSpans.await(span -> span.id().equals(attempts.get(0).parentId()));
        List<String> parentEvents = parent.events().stream().filter(event -> event.startsWith("resilience.")).toList();
        assertThat(parentEvents).as("among the trace's spans %s", FinishedSpans.ALL.stream()
                .filter(span -> id.equals(span.traceId())).toList())
                .containsExactly("resilience.retry", "resilience.retry");
    }
}
