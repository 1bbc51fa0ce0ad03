package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.resiliencestarter.context.TraceIds;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The sample as Spring AOT processed it (the build's {@code process-aot}, before the tests), run
 * in a JVM of its own with {@code -Dspring.aot.enabled=true} on its embedded defaults: its
 * generated bean definitions replace the annotation processing and the conditions evaluated at
 * startup, as in a native image. Over HTTP, what the starter does there: a duplicate replays and
 * another payload is 422, a flaky inventory is retried, a slow one times out, a failing one opens
 * the breaker. And what the processing wrote down for a native image names the stores' scripts
 * (the starter's {@code aot.factories} was found).
 */
@Tag("aot")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AheadOfTimeSampleTest {

    private final String run = TraceIds.generate().substring(0, 8);

    private SampleNode node;

    private SampleHttp http;

    @BeforeAll
    void startProcessed() throws Exception {
        // the processed application's entry point: without it, spring.aot.enabled=true refuses to start
        Class.forName(SampleApplication.class.getName() + "__ApplicationContextInitializer");
        node = SampleNode.start("aot", List.of("-Dspring.aot.enabled=true"), List.of(
                "--resilience.circuit-breaker.instances.inventory.wait-in-open-state=1s",
                "--resilience.retry.instances.inventory.delay=5ms",
                "--resilience.retry.instances.inventory.max-delay=10ms"));
        node.awaitUp(Duration.ofSeconds(60));
        http = node.http();
    }

    @AfterAll
    void stop() {
        node.close();
    }

    @Test
    @Order(0)
    void theProcessingToldANativeImageWhichScriptsTheStoresLoad() throws Exception {
        Path classes = Path.of(SampleApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        StringBuilder metadata = new StringBuilder();
        try (Stream<Path> files = Files.walk(classes.resolve("META-INF/native-image"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                metadata.append(Files.readString(file));
            }
        }
        // the resource patterns are written as quoted regular expressions or as globs, depending on the line
        String readable = metadata.toString().replace("\\Q", "").replace("\\E", "").replace("\\/", "/");

        assertThat(readable).as("the schema scripts and the Redis store's scripts (ResilienceRuntimeHints)")
                .contains("db/resilience-starter/", "io/github/resiliencestarter/idempotent/redis/");
    }

    @Test
    @Order(1)
    void aDuplicateReplaysAndAnotherPayloadIs422() {
        http.faults(0, 0, 0);
        int before = http.stock(1);

        HttpResponse<String> first = http.createOrder("AOT-" + run, 1, 2, "12.50");
        HttpResponse<String> again = http.createOrder("AOT-" + run, 1, 2, "12.50");
        HttpResponse<String> other = http.createOrder("AOT-" + run, 1, 2, "99.00");

        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        assertThat(SampleHttp.json(again)).isEqualTo(SampleHttp.json(first));
        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(http.stock(1)).as("reserved once").isEqualTo(before - 2);
    }

    @Test
    @Order(2)
    void aFlakyInventoryIsRetriedAndASlowOneTimesOut() {
        http.faults(0, 0, 2);
        HttpResponse<String> retried = http.createOrder("AOT-R-" + run, 1, 1, "4.00");
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);

        http.faults(5_000, 0, 0);
        long start = System.nanoTime();
        HttpResponse<String> slow = http.createOrder("AOT-T-" + run, 2, 1, "3.00");
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        http.faults(0, 0, 0);
        assertThat(slow.statusCode()).as(slow.body()).isEqualTo(504);
        assertThat(SampleHttp.json(slow).path("type").asText()).endsWith("deadline-exceeded");
        assertThat(tookMillis).isLessThan(4_000);
    }

    @Test
    @Order(3) // last: the breaker stays open a while
    void aFailingInventoryOpensTheBreaker() {
        http.faults(0, 1.0, 0);
        HttpResponse<String> refused = null;
        for (int i = 0; i < 30 && refused == null; i++) {
            HttpResponse<String> response = http.createOrder("AOT-CB-" + run + "-" + i, 1, 1, "1.00");
            if (response.body().contains("circuit-open")) {
                refused = response;
            }
        }
        http.faults(0, 0, 0);
        assertThat(refused).as("an order refused by the open breaker").isNotNull();
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        JsonNode breaker = SampleHttp.json(http.send("GET", "/actuator/resilience", null))
                .path("circuitBreakers").path("inventory");
        assertThat(breaker.path("state").asText()).isIn("OPEN", "HALF_OPEN");
    }
}
