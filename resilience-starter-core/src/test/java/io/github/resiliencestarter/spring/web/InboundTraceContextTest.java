package io.github.resiliencestarter.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TraceIdSource;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which trace id an inbound request gets. */
class InboundTraceContextTest {

    private static final String TRACER = "4bf92f3577b34da6a3ce929d0e0e4736";

    private static final Map<String, String> HEADERS = Map.of("X-Trace-Id", "from-the-caller",
            "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

    private static String traceId(TraceIdSource tracer) {
        return new InboundTraceContext(null, null, tracer).read(HEADERS::get).traceId();
    }

    @Test
    void theTracersCurrentTraceIdComesFirst() {
        assertThat(traceId(() -> TRACER)).isEqualTo(TRACER);
    }

    @Test
    void withoutACurrentSpanTheHeadersDecide() {
        assertThat(traceId(() -> null)).isEqualTo("from-the-caller");
        assertThat(new InboundTraceContext(null, null, null).read(Map.of("traceparent",
                "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")::get).traceId())
                .isEqualTo("0af7651916cd43dd8448eb211c80319c");
    }
}
