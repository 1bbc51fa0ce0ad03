package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import io.github.resiliencestarter.spring.web.ResilienceExceptionHandler;
import io.github.resiliencestarter.spring.web.TraceContextFilter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * {@code resilience.problems.type-base}: each problem type a link to its documentation, as RFC
 * 9457 and the IETF Idempotency-Key draft ask of the 400 and 422 problems.
 */
class ProblemTypeBaseTest {

    private static final String DOCS = "https://docs.example.com/problems/";

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    ProblemDetailsAutoConfiguration.class, TraceContextAutoConfiguration.class));

    @Test
    void theHandlersProblemsAndTheFiltersOwnStartWithTheConfiguredBase() {
        runner.withPropertyValues("resilience.problems.type-base=" + DOCS).run(context -> {
            MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders");
            var problem = context.getBean(ResilienceExceptionHandler.class)
                    .handle(new IdempotencyKeyException("The idempotency key is missing"), new ServletWebRequest(request))
                    .getBody();
            assertThat(problem.getType()).hasToString(DOCS + "idempotency-key-invalid");

            @SuppressWarnings("unchecked")
            TraceContextFilter filter = ((FilterRegistrationBean<TraceContextFilter>) context
                    .getBean("traceContextFilter", FilterRegistrationBean.class)).getFilter();
            MockHttpServletRequest spent = new MockHttpServletRequest("GET", "/orders");
            spent.addHeader("X-Timeout-Budget-Ms", "0");
            MockHttpServletResponse response = new MockHttpServletResponse();
            filter.doFilter(spent, response, new MockFilterChain());
            assertThat(response.getStatus()).isEqualTo(504);
            assertThat(response.getContentAsString()).contains("\"type\":\"" + DOCS + "deadline-exceeded\"");
        });
    }

    @Test
    void withoutItTheTypesAreTheStartersOwnNamesAndANonUriFailsTheStart() {
        runner.run(context -> assertThat(context.getBean(ResilienceExceptionHandler.class)
                .handle(new IdempotencyKeyException("missing"), new ServletWebRequest(new MockHttpServletRequest()))
                .getBody().getType()).hasToString("urn:resilience-starter:problem:idempotency-key-invalid"));
        runner.withPropertyValues("resilience.problems.type-base=problems/").run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("resilience.problems.type-base must be an absolute URI"));
    }
}
