package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The documented kill switch: the sample starts and serves with {@code resilience.enabled=false}
 * (its inventory client still gets the interceptor bean it injects, now a pass-through), and no
 * annotation acts any more.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "resilience.enabled=false")
class KillSwitchTest {

    @LocalServerPort
    private int port;

    @Test
    void theSampleStartsAndServesWithTheStarterSwitchedOff() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long start = System.nanoTime();
        HttpResponse<String> slow = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/demo/slow?sleepMs=400")).build(),
                HttpResponse.BodyHandlers.ofString());
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        // the 200 ms @Timeout no longer applies: the call runs to its end, and no trace filter answers
        assertThat(slow.statusCode()).isEqualTo(200);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(slow.headers().firstValue("X-Trace-Id")).isEmpty();

        SampleHttp orders = new SampleHttp(port);
        HttpResponse<String> created = orders.send("POST", "/order/create",
                "{\"orderNo\":\"KILL-" + System.nanoTime() + "\",\"userId\":7,\"productId\":1,\"quantity\":1,"
                        + "\"amount\":1}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    }
}
