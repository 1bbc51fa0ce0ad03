package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Headers no well-behaved client sends, written byte by byte on a raw socket: control characters
 * in the trace id and budget, oversized values. Never a 500, never an echo into the response or
 * the log.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "logging.pattern.level=%5p [%X{traceId:-}]")
@ExtendWith(OutputCaptureExtension.class)
class HostileHeadersWebTest {

    @LocalServerPort
    private int port;

    private String raw(String path, String... headerLines) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
            for (String line : headerLines) {
                request.append(line).append("\r\n");
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            in.transferTo(response);
            return response.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    @Test
    void controlCharactersInTheTraceIdAreReplacedNeverEchoed(CapturedOutput output) throws Exception {
        // a raw control character: the server refuses the request before any handler
        String refused = raw("/t/context", "X-Trace-Id: evil\u0001idRefused");
        assertThat(status(refused)).isEqualTo(400);
        assertThat(refused).doesNotContain("Refused");
        // a tab is legal in a header value but not in a trace id: replaced, never echoed
        String response = raw("/t/context", "X-Trace-Id: evil\tInjected");
        assertThat(status(response)).isEqualTo(200);
        String echoed = response.lines().filter(line -> line.startsWith("X-Trace-Id:")).findFirst().orElseThrow();
        assertThat(echoed).matches("X-Trace-Id: [0-9a-f]{32}");
        assertThat(response).doesNotContain("Injected");
        assertThat(output.getOut()).doesNotContain("Injected");
    }

    @Test
    void budgetHeadersWithControlCharactersAreRefusedByTheServerBeforeAnyHandler() throws Exception {
        int before = WebTestApplication.TestController.HANDLER_CALLS.get();
        for (String header : new String[] {"X-Timeout-Budget-Ms: 12\u0000", "grpc-timeout: \u0007S"}) {
            assertThat(status(raw("/t/context", header))).as(header).isEqualTo(400);
        }
        assertThat(WebTestApplication.TestController.HANDLER_CALLS.get()).isEqualTo(before);
    }

    @Test
    void wellFormedButMeaninglessBudgetsAreIgnoredSoTheHandlerRunsWithoutADeadline() throws Exception {
        for (String header : new String[] {"X-Timeout-Budget-Ms: " + "9".repeat(4000),
            "x-envoy-expected-rq-timeout-ms: -0"}) {
            String response = raw("/t/context", header);
            String shown = header.length() > 40 ? header.substring(0, 40) + "..." : header;
            assertThat(status(response)).as(shown).isEqualTo(200);
            assertThat(response).as(shown).contains("\"remainingMs\":-1");
        }
    }

    @Test
    void anOversizedHeaderIsRefusedWith400() throws Exception {
        String response = raw("/t/context", "X-Trace-Id: " + "a".repeat(10_240));
        assertThat(status(response)).isEqualTo(400);
    }
}
