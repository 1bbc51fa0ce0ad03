package io.github.resiliencestarter.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** An annotation that cannot work fails the start with Spring Boot's report: description, then action. */
@ExtendWith(OutputCaptureExtension.class)
class InvalidDeclarationFailureAnalyzerTest {

    @Test
    void theStartupReportDescribesTheMethodAndSaysWhatToDo(CapturedOutput output) {
        SpringApplication application = new SpringApplication(TooManyAttempts.class);
        application.setWebApplicationType(WebApplicationType.NONE);

        assertThatThrownBy(() -> application.run("--spring.main.banner-mode=off"))
                .isInstanceOf(RuntimeException.class);

        String report = output.getOut() + output.getErr();
        assertThat(report).contains("APPLICATION FAILED TO START");
        String description = report.substring(report.indexOf("Description:"), report.indexOf("Action:"));
        String action = report.substring(report.indexOf("Action:"));
        assertThat(description).contains("@Retry on " + Orders.class.getName() + ".create()",
                "asks for 50 attempts; allowed are 1 to 10");
        assertThat(action).contains("Lower maxAttempts, or raise resilience.retry.max-attempts-cap");
    }

    /** A service with an impossible retry count. */
    static class Orders {

        @Retry(maxAttempts = 50, idempotent = true)
        public String create() {
            return "created";
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ResilienceAutoConfiguration.class, RetryAutoConfiguration.class})
    static class TooManyAttempts {

        @Bean
        Orders orders() {
            return new Orders();
        }
    }
}
