package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.spring.web.TraceContextFilter;
import io.github.resiliencestarter.spring.web.TraceMdcCleanup;
import jakarta.servlet.ServletRequestEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockServletContext;

/** After a failed request the trace id stays in the MDC for the container's line, then goes. */
class TraceMdcCleanupTest {

    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void aFailedRequestKeepsItsTraceIdForTheContainerUntilTheRequestEnds() {
        TraceContextFilter filter = new TraceContextFilter(null, null, null);
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/fails");
        request.addHeader(ResilienceHeaders.TRACE_ID, "failed-1");

        assertThatThrownBy(() -> filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> {
            throw new IllegalStateException("unhandled");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(MDC.get(TraceContextHolder.MDC_TRACE_ID)).isEqualTo("failed-1");
        assertThat(TraceContextHolder.current().traceId()).isNull();

        new TraceMdcCleanup().requestDestroyed(new ServletRequestEvent(new MockServletContext(), request));
        assertThat(MDC.get(TraceContextHolder.MDC_TRACE_ID)).isNull();
    }

    @Test
    void aSuccessfulRequestLeavesNothingBehind() throws Exception {
        TraceContextFilter filter = new TraceContextFilter(null, null, null);
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/works");
        request.addHeader(ResilienceHeaders.TRACE_ID, "ok-1");

        filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> { });

        assertThat(MDC.get(TraceContextHolder.MDC_TRACE_ID)).isNull();
    }
}
