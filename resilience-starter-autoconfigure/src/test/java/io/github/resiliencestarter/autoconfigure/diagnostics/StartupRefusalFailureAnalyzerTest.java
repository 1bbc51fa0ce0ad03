package io.github.resiliencestarter.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.chaos.ChaosAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Each start the starter refuses ends in Spring Boot's report, as Boot's own refusals do: under
 * "Description" what is wrong, under "Action" what to do, and no stack trace in between.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupRefusalFailureAnalyzerTest {

    /** The report of a start that failed: its description and its action. */
    private record Report(String description, String action) {
    }

    private static Report refusedStart(CapturedOutput output, Class<?> application, String... args) {
        SpringApplication spring = new SpringApplication(application);
        spring.setWebApplicationType(WebApplicationType.NONE);
        String[] all = new String[args.length + 1];
        all[0] = "--spring.main.banner-mode=off";
        System.arraycopy(args, 0, all, 1, args.length);

        assertThatThrownBy(() -> spring.run(all)).isInstanceOf(RuntimeException.class);

        String report = output.getOut() + output.getErr();
        assertThat(report).contains("APPLICATION FAILED TO START");
        int description = report.lastIndexOf("Description:");
        int action = report.lastIndexOf("Action:");
        assertThat(description).as("a description in %s", report).isPositive();
        return new Report(report.substring(description, action), report.substring(action));
    }

    @Test
    void anAnnotationThatCannotWork(CapturedOutput output) {
        Report report = refusedStart(output, TooManyAttempts.class);

        assertThat(report.description()).contains("@Retry on " + Orders.class.getName() + ".create()",
                "asks for 50 attempts; allowed are 1 to 10");
        assertThat(report.action()).contains("Lower maxAttempts, or raise resilience.retry.max-attempts-cap");
    }

    @Test
    void chaosInARefusedProfile(CapturedOutput output) {
        Report report = refusedStart(output, Chaos.class, "--spring.profiles.active=prod",
                "--resilience.chaos.enabled=true");

        assertThat(report.description()).contains("resilience.chaos.enabled=true in profile [prod]",
                "resilience.chaos.refused-profiles");
        assertThat(report.action()).contains("resilience.chaos.enabled=false",
                "resilience.chaos.allow-in-refused-profiles=true");
    }

    @Test
    void aStoreWithoutItsClient(CapturedOutput output) {
        Report report = refusedStart(output, Keyed.class, "--resilience.idempotent.store=redis");

        assertThat(report.description()).contains("resilience.idempotent.store=redis needs spring-data-redis and a "
                + "single RedisConnectionFactory bean; none was found");
        assertThat(report.action()).contains("spring-boot-starter-data-redis", "resilience.idempotent.store=jdbc");
    }

    @Test
    void aMissingIdempotencyTable(CapturedOutput output) {
        Report report = refusedStart(output, KeyedOnADatabase.class, "--resilience.idempotent.store=jdbc",
                "--resilience.idempotent.jdbc.initialize-schema=never");

        assertThat(report.description()).contains("The idempotency table 'resilience_idempotency' is missing");
        assertThat(report.action()).contains("spring.flyway.locations", "db/resilience-starter/changelog.yaml",
                "resilience.idempotent.jdbc.initialize-schema=always");
    }

    /** A service with an impossible retry count. */
    static class Orders {

        @Retry(maxAttempts = 50, idempotent = true)
        public String create() {
            return "created";
        }
    }

    /** A service whose calls need the idempotency store. */
    static class KeyedOrders {

        @Idempotent(key = "#orderNo")
        public String create(String orderNo) {
            return orderNo;
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

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
        RetryAutoConfiguration.class, ChaosAutoConfiguration.class})
    static class Chaos {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ResilienceAutoConfiguration.class, IdempotencyAutoConfiguration.class})
    static class Keyed {

        @Bean
        KeyedOrders orders() {
            return new KeyedOrders();
        }
    }

    /** {@link Keyed} with a database, whose idempotency table nobody created. */
    @Configuration(proxyBeanMethods = false)
    @Import(Keyed.class)
    static class KeyedOnADatabase {

        @Bean
        DataSource dataSource() {
            return new SimpleDriverDataSource(new org.h2.Driver(), "jdbc:h2:mem:refused_" + System.nanoTime());
        }
    }
}
