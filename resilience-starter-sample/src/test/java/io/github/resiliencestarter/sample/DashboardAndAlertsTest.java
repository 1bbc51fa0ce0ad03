package io.github.resiliencestarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.yaml.snakeyaml.Yaml;

/**
 * The shipped dashboard and alert rules, tested for real (docs/observability.md#dashboard-and-alerts):
 * Debian's Prometheus scrapes the running sample while it serves every kind of outcome, and every
 * panel's query of observability/grafana/resilience.json must return data; promtool must pass the
 * unit tests of observability/prometheus/resilience-alerts.yml, and every alert must have one.
 * Tagged "prometheus": the test command runs it on the Java 17 and Java 25 legs.
 */
@Tag("prometheus")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    // Boot's tests switch metrics export off unless asked: this test is about the export
    "management.prometheus.metrics.export.enabled=true",
    // every chaos-asking call gets its 503, so the injected-fault panel has data for sure
    "resilience.chaos.faults.inventory-503.share=100"})
class DashboardAndAlertsTest {

    private static final Path OBSERVABILITY = Path.of("..", "observability").toAbsolutePath().normalize();

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Path workDir;

    private static Process prometheus;

    private static int prometheusPort;

    @LocalServerPort
    private int port;

    @BeforeAll
    static void findTools() throws IOException {
        // no skipping for a missing tool: scripts/test.sh installs Debian's prometheus package
        assertThat(executable("prometheus")).as("prometheus on the PATH (apt-get install prometheus)").isNotNull();
        assertThat(executable("promtool")).as("promtool on the PATH (apt-get install prometheus)").isNotNull();
        workDir = Files.createTempDirectory("resilience-prometheus");
    }

    @AfterAll
    static void stopPrometheus() throws InterruptedException {
        if (prometheus != null) {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        }
    }

    private static Path executable(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    @Test
    void O1_everyAlertHasAUnitTestAndPromtoolPassesThemAll() throws Exception {
        Path rules = OBSERVABILITY.resolve("prometheus/resilience-alerts.yml");
        Path tests = OBSERVABILITY.resolve("prometheus/resilience-alerts-test.yml");

        Set<String> alerts = new TreeSet<>();
        for (Map<String, Object> group : listOf(new Yaml().<Map<String, Object>>load(Files.readString(rules))
                .get("groups"))) {
            for (Map<String, Object> rule : listOf(group.get("rules"))) {
                alerts.add(String.valueOf(rule.get("alert")));
            }
        }
        Set<String> tested = new TreeSet<>();
        for (Map<String, Object> test : listOf(new Yaml().<Map<String, Object>>load(Files.readString(tests))
                .get("tests"))) {
            for (Map<String, Object> check : listOf(test.get("alert_rule_test"))) {
                if (!listOf(check.get("exp_alerts")).isEmpty()) {
                    tested.add(String.valueOf(check.get("alertname")));
                }
            }
        }
        assertThat(alerts).hasSize(5);
        assertThat(tested).as("every alert is seen firing in a unit test").isEqualTo(alerts);

        Process promtool = new ProcessBuilder("promtool", "test", "rules", tests.getFileName().toString())
                .directory(tests.getParent().toFile()).redirectErrorStream(true).start();
        String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(promtool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(promtool.exitValue()).as(output).isZero();
        assertThat(output).contains("SUCCESS");
    }

    @Test
    void O1_everyDashboardPanelsQueryReturnsDataFromTheRunningSample() throws Exception {
        startPrometheus();
        serveEveryKindOfOutcome();

        Map<String, String> queries = new LinkedHashMap<>();
        for (JsonNode panel : SampleHttp.JSON.readTree(OBSERVABILITY.resolve("grafana/resilience.json").toFile())
                .get("panels")) {
            for (JsonNode target : panel.path("targets")) {
                // Grafana's own variable: a window that holds several of this test's 1 s scrapes
                queries.put(panel.get("title").asText(), target.get("expr").asText().replace("$__rate_interval", "1m"));
            }
        }
        assertThat(queries).hasSizeGreaterThanOrEqualTo(15);

        // the scrapes every second need a few rounds to hold two samples of every series
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> empty;
        do {
            Thread.sleep(1_000);
            empty = new ArrayList<>();
            for (Map.Entry<String, String> query : queries.entrySet()) {
                if (result(query.getValue()).isEmpty()) {
                    empty.add(query.getKey() + ": " + query.getValue());
                }
            }
        } while (!empty.isEmpty() && System.nanoTime() < until);
        JsonNode targets = get("/api/v1/targets").get("data").get("activeTargets");
        assertThat(empty).as(() -> "panels whose query returned nothing; the scrape: " + targets).isEmpty();

        // the rules load in a real Prometheus too, with the sample's series
        JsonNode groups = get("/api/v1/rules").get("data").get("groups");
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).get("rules")).hasSize(5);
    }

    private void startPrometheus() throws Exception {
        prometheusPort = freePort();
        Path config = workDir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                scrape_configs:
                  - job_name: sample
                    metrics_path: /actuator/prometheus
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(OBSERVABILITY.resolve("prometheus/resilience-alerts.yml"), port));
        prometheus = new ProcessBuilder("prometheus", "--config.file=" + config,
                "--storage.tsdb.path=" + workDir.resolve("data"), "--web.listen-address=127.0.0.1:" + prometheusPort,
                "--log.level=warn").redirectErrorStream(true).redirectOutput(workDir.resolve("prometheus.log").toFile())
                .start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ready()) {
            assertThat(prometheus.isAlive()).as(() -> log()).isTrue();
            assertThat(System.nanoTime()).as("Prometheus ready within 30 s").isLessThan(until);
            Thread.sleep(200);
        }
    }

    private static String log() {
        try {
            return Files.readString(workDir.resolve("prometheus.log"));
        } catch (IOException ex) {
            return ex.toString();
        }
    }

    private static boolean ready() {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + prometheusPort + "/-/ready"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException ex) {
            return false;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Timeouts, retries, replays, conflicts, the breaker and injected faults: every panel's series. */
    private void serveEveryKindOfOutcome() {
        SampleHttp http = new SampleHttp(port);
        http.faults(0, 0, 0);
        String run = "DASH" + System.nanoTime();
        for (int i = 0; i < 5; i++) {
            http.createOrder(run + "-" + i, 1, 1, "1.00");
        }
        http.createOrder(run + "-0", 1, 1, "1.00");
        http.createOrder(run + "-0", 1, 1, "2.00");
        http.send("GET", "/demo/slow?sleepMs=10", null);
        http.send("GET", "/demo/slow?sleepMs=400", null);
        http.faults(0, 0, 1);
        http.createOrder(run + "-retried", 1, 1, "1.00");
        http.faults(0, 0, 0);
        http.createOrder(run + "-chaos", 1, 1, "1.00", "X-Resilience-Chaos", "inventory-503");
    }

    private static JsonNode result(String query) throws Exception {
        return get("/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)).get("data")
                .get("result");
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + prometheusPort + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return SampleHttp.JSON.readTree(response.body());
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> listOf(Object value) {
        return value == null ? List.of() : (List<Map<String, Object>>) value;
    }
}
