package io.github.resiliencestarter.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.http.OutboundProperties;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.web.TraceProperties;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.validation.FieldError;

/**
 * Every refused {@code resilience.*} value fails the start at binding time, reported against its
 * own property (path, value, reason), the way Spring Boot reports its own properties.
 */
@ExtendWith(OutputCaptureExtension.class)
class PropertyValidationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    RetryAutoConfiguration.class, IdempotencyAutoConfiguration.class))
            .withUserConfiguration(TraceAndOutbound.class);

    /** The trace and outbound groups, bound as their auto-configurations bind them. */
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({TraceProperties.class, OutboundProperties.class})
    static class TraceAndOutbound {
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            resilience.timeout.duration=-5s                        | resilience.timeout.duration                  | PT-5S  | must be positive
            resilience.timeout.instances.orders.duration=0ms       | resilience.timeout.instances[orders].duration | PT0S   | must be positive
            resilience.timeout.executor.max-size=0                 | resilience.timeout.executor.max-size         | 0      | must be at least 1
            resilience.timeout.executor.core-size=-1               | resilience.timeout.executor.core-size        | -1     | must not be negative
            resilience.retry.multiplier=0.5                        | resilience.retry.multiplier                  | 0.5    | at least 1
            resilience.retry.delay=-1s                             | resilience.retry.delay                       | PT-1S  | must not be negative
            resilience.retry.instances.inventory.max-delay=10ms    | resilience.retry.instances[inventory].max-delay | PT0.01S | must be at least the delay
            resilience.retry.max-attempts=50                       | resilience.retry.max-attempts                | 50     | resilience.retry.max-attempts-cap
            resilience.retry.max-attempts=0                        | resilience.retry.max-attempts                | 0      | must be at least 1
            resilience.retry.budget.percent=700                    | resilience.retry.budget.percent              | 700.0  | between 0 and 100
            resilience.retry.budget.window=100ms                   | resilience.retry.budget.window               | PT0.1S | at least 1s
            resilience.idempotent.ttl=0s                          | resilience.idempotent.ttl                   | PT0S   | must be positive
            resilience.idempotent.lease=-1s                       | resilience.idempotent.lease                 | PT-1S  | must be positive
            resilience.trace.max-inbound-budget=0s                 | resilience.trace.max-inbound-budget          | PT0S   | must be positive
            resilience.trace.default-budget=-1s                    | resilience.trace.default-budget              | PT-1S  | must be positive
            resilience.outbound.budget-margin=-5ms                 | resilience.outbound.budget-margin            | PT-0.005S | must not be negative
            resilience.idempotent.jdbc.table=orders;drop          | resilience.idempotent.jdbc.table            | orders;drop | letters, digits and underscores
            """)
    void aRefusedValueIsReportedAgainstItsProperty(String setting, String property, String converted, String reason) {
        runner.withPropertyValues(setting).run(context -> {
            assertThat(context).hasFailed();
            Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
            assertThat(root).isInstanceOf(BindValidationException.class);
            FieldError error = (FieldError) ((BindValidationException) root).getValidationErrors().getAllErrors()
                    .get(0);
            assertThat(error.getObjectName() + "." + error.getField()).isEqualTo(property);
            assertThat(String.valueOf(error.getRejectedValue())).isEqualTo(converted);
            assertThat(error.getDefaultMessage()).contains(reason);
        });
    }

    @Test
    void validValuesStartTheApplication() {
        runner.withPropertyValues("resilience.timeout.duration=2s", "resilience.retry.delay=2s",
                "resilience.retry.budget.percent=20", "resilience.idempotent.ttl=1h",
                // max-size alone: the core size follows it down
                "resilience.timeout.executor.max-size=2").run(context ->
                assertThat(context).hasNotFailed());
    }

    @Test
    void theStartupReportNamesPropertyValueReasonAndAction(CapturedOutput output) {
        SpringApplication application = new SpringApplication(ResilienceOnly.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        try {
            application.run("--resilience.retry.budget.percent=700", "--spring.main.banner-mode=off");
        } catch (RuntimeException expected) {
            // the report is what this test reads
        }
        assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START",
                "Property: resilience.retry.budget.percent", "Value: \"700.0\"", "Reason: must be between 0 and 100",
                "Action:");
        assertThat(Arrays.stream((output.getOut() + output.getErr()).split("\n"))
                .filter(line -> line.contains("Reason:")).toList()).hasSize(1);
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
            RetryAutoConfiguration.class, IdempotencyAutoConfiguration.class})
    static class ResilienceOnly {
    }
}
