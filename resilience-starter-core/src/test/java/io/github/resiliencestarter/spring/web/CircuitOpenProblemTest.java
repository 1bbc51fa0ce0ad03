package io.github.resiliencestarter.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.circuit.CircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** An open circuit over HTTP: 503 circuit-open with the trace id, Retry-After the time to the probe. */
class CircuitOpenProblemTest {

    @Test
    void anOpenCircuitIsA503CircuitOpenProblemWithRetryAfterRoundedUpToWholeSeconds() {
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("trace-1"))) {
            ResponseEntity<ProblemDetail> response = ResilienceProblems.response(
                    new CircuitOpenException("inventory", CircuitState.OPEN, Duration.ofMillis(8_200)), "/order", false);
            assertThat(response.getStatusCode().value()).isEqualTo(503);
            assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("9");
            ProblemDetail problem = response.getBody();
            assertThat(problem.getType().toString()).isEqualTo(ResilienceProblems.TYPE_BASE + "circuit-open");
            assertThat(problem.getProperties()).containsEntry(ResilienceProblems.TRACE_ID_PROPERTY, "trace-1");
            assertThat(problem.getDetail()).doesNotContain("inventory");
        }
    }

    @Test
    void aProbeDueNowStillAsksForOneSecond() {
        assertThat(ResilienceProblems.retryAfterSeconds(
                new CircuitOpenException("inventory", CircuitState.OPEN, Duration.ZERO))).isEqualTo(1);
    }
}
