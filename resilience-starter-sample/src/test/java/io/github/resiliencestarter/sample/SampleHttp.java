package io.github.resiliencestarter.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP client for the sample's tests. */
final class SampleHttp {

    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;

    SampleHttp(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    HttpResponse<String> send(String method, String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    HttpResponse<String> createOrder(String orderNo, long productId, int quantity, String amount, String... headers) {
        return send("POST", "/order/create", "{\"orderNo\":\"" + orderNo + "\",\"userId\":7,\"productId\":" + productId
                + ",\"quantity\":" + quantity + ",\"amount\":" + amount + "}", headers);
    }

    void faults(long latencyMs, double failureRate, int failNext) {
        send("PUT", "/inventory/faults", "{\"latencyMs\":" + latencyMs + ",\"failureRate\":" + failureRate
                + ",\"failureStatus\":503,\"failNext\":" + failNext + "}");
    }

    int stock(long productId) {
        return json(send("GET", "/inventory/stock/" + productId, null)).get("available").asInt();
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
