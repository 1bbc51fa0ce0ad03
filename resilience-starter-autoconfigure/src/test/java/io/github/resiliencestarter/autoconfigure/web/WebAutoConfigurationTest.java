package io.github.resiliencestarter.autoconfigure.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.spring.web.RequestContextPropagator;
import io.github.resiliencestarter.spring.web.ResilienceExceptionHandler;
import io.github.resiliencestarter.spring.web.TraceContextFilter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.web.servlet.DispatcherServlet;

class WebAutoConfigurationTest {

    private final WebApplicationContextRunner web = new WebApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(TraceContextAutoConfiguration.class, ProblemDetailsAutoConfiguration.class));

    @Test
    void aServletApplicationGetsTheFilterThePropagatorAndTheHandler() {
        web.run(context -> {
            assertThat(context).hasBean("traceContextFilter").hasSingleBean(RequestContextPropagator.class)
                    .hasSingleBean(ResilienceExceptionHandler.class);
            FilterRegistrationBean<?> registration = context.getBean("traceContextFilter", FilterRegistrationBean.class);
            assertThat(registration.getFilter()).isInstanceOf(TraceContextFilter.class);
            assertThat(registration.getOrder()).isEqualTo(TraceContextFilter.DEFAULT_ORDER);
        });
    }

    @Test
    void theFilterOrderIsConfigurable() {
        web.withPropertyValues("resilience.trace.filter-order=5", "resilience.trace.default-budget=2s").run(context -> {
            FilterRegistrationBean<?> registration = context.getBean("traceContextFilter", FilterRegistrationBean.class);
            assertThat(registration.getOrder()).isEqualTo(5);
            assertThat(context.getBean(TraceProperties.class).getDefaultBudget()).isEqualTo(Duration.ofSeconds(2));
        });
    }

    @Test
    void aNonWebApplicationGetsNoneOfThem() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TraceContextAutoConfiguration.class,
                ProblemDetailsAutoConfiguration.class)).run(context -> assertThat(context)
                        .doesNotHaveBean("traceContextFilter").doesNotHaveBean(ResilienceExceptionHandler.class));
    }

    @Test
    void traceEnabledFalseRemovesOnlyTheFilter() {
        web.withPropertyValues("resilience.trace.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean("traceContextFilter").hasSingleBean(ResilienceExceptionHandler.class));
    }

    @Test
    void problemDetailsCanBeSwitchedOff() {
        web.withPropertyValues("resilience.problems.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(ResilienceExceptionHandler.class).hasBean("traceContextFilter"));
    }

    @Test
    void resilienceEnabledFalseRemovesEverything() {
        web.withPropertyValues("resilience.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean("traceContextFilter").doesNotHaveBean(ResilienceExceptionHandler.class)
                .doesNotHaveBean(RequestContextPropagator.class));
    }

    @Test
    void withoutSpringMvcThereIsNoExceptionHandler() {
        web.withClassLoader(new FilteredClassLoader(DispatcherServlet.class)).run(context -> assertThat(context)
                .doesNotHaveBean(ResilienceExceptionHandler.class));
    }

    @Test
    void userBeansReplaceTheDefaults() {
        ResilienceExceptionHandler own = new ResilienceExceptionHandler();
        web.withBean("ownHandler", ResilienceExceptionHandler.class, () -> own)
                .withBean("ownFilter", TraceContextFilter.class, () -> new TraceContextFilter(null, null, null))
                .run(context -> assertThat(context).doesNotHaveBean("traceContextFilter")
                        .hasSingleBean(ResilienceExceptionHandler.class).hasBean("ownHandler"));
    }
}
