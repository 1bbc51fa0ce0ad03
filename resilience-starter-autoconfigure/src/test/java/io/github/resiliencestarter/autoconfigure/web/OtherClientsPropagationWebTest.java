package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import feign.Feign;
import feign.RequestLine;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.spring.http.TraceContextExchangeFilter;
import io.github.resiliencestarter.spring.http.TraceContextFeignInterceptor;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/** WebClient and OpenFeign send the same headers and refuse to send on a spent budget. */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OtherClientsPropagationWebTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    private int port;

    interface CountApi {

        @RequestLine("GET /p/count")
        String count();
    }

    private static TraceScope request(String traceId, Duration budget) {
        return TraceContextHolder.open(TraceContext.empty().withTraceId(traceId).withDeadline(Deadline.after(budget)));
    }

    @Test
    void webClientSendsTraceIdAndBudgetAndNothingWhenSpent() throws Exception {
        WebClient client = WebClient.builder().clientConnector(new JdkClientHttpConnector())
                .baseUrl("http://127.0.0.1:" + port).filter(new TraceContextExchangeFilter(Duration.ofMillis(20)))
                .build();
        try (TraceScope scope = request("webclient-1", Duration.ofSeconds(2))) {
            JsonNode body = JSON.readTree(client.get().uri("/p/count").retrieve().bodyToMono(String.class).block());
            assertThat(body.get("traceId").asText()).isEqualTo("webclient-1");
            assertThat(body.get("budget").asLong()).isPositive().isLessThanOrEqualTo(1980);
        }
        WebTestApplication.PropagationController.COUNTED.set(0);
        try (TraceScope scope = request("webclient-2", Duration.ofMillis(10))) {
            assertThatThrownBy(() -> client.get().uri("/p/count").retrieve().bodyToMono(String.class).block())
                    .isInstanceOf(DeadlineExceededException.class);
        }
        assertThat(WebTestApplication.PropagationController.COUNTED.get()).isZero();
    }

    @Test
    void feignSendsTraceIdAndBudgetAndNothingWhenSpent() throws Exception {
        CountApi api = Feign.builder().requestInterceptor(new TraceContextFeignInterceptor(Duration.ofMillis(20)))
                .target(CountApi.class, "http://127.0.0.1:" + port);
        try (TraceScope scope = request("feign-1", Duration.ofSeconds(2))) {
            JsonNode body = JSON.readTree(api.count());
            assertThat(body.get("traceId").asText()).isEqualTo("feign-1");
            assertThat(body.get("budget").asLong()).isPositive().isLessThanOrEqualTo(1980);
        }
        WebTestApplication.PropagationController.COUNTED.set(0);
        try (TraceScope scope = request("feign-2", Duration.ofMillis(10))) {
            assertThatThrownBy(api::count).isInstanceOf(DeadlineExceededException.class);
        }
        assertThat(WebTestApplication.PropagationController.COUNTED.get()).isZero();
    }
}
