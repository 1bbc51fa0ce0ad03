package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.spring.web.TraceContextFilter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * {@code resilience.trace.accept-inbound-budget=false}: the trace id stays, callers' budget headers
 * no longer set the deadline, so a spent one is not a 504 (the switch getting-started lists).
 */
class InboundBudgetSwitchTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TraceContextAutoConfiguration.class));

    /** Runs the request through the filter; the deadline the handler saw, and the response. */
    private static MockHttpServletResponse send(ApplicationContext context, AtomicReference<Deadline> seen)
            throws Exception {
        @SuppressWarnings("unchecked")
        TraceContextFilter filter = ((FilterRegistrationBean<TraceContextFilter>) context
                .getBean("traceContextFilter", FilterRegistrationBean.class)).getFilter();
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/orders");
        request.addHeader("X-Timeout-Budget-Ms", "0");
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                seen.set(TraceContextHolder.current().deadline());
            }
        }));
        return response;
    }

    @Test
    void switchedOffASpentInboundBudgetNoLongerAnswers504() {
        runner.withPropertyValues("resilience.trace.accept-inbound-budget=false").run(context -> {
            AtomicReference<Deadline> seen = new AtomicReference<>();
            MockHttpServletResponse response = send(context, seen);
            assertThat(response.getStatus()).isEqualTo(200);
            assertThat(response.getHeader("X-Trace-Id")).isNotBlank();
            assertThat(seen.get()).as("no deadline from the caller").isNull();
        });
        runner.run(context -> assertThat(send(context, new AtomicReference<>()).getStatus()).isEqualTo(504));
    }
}
