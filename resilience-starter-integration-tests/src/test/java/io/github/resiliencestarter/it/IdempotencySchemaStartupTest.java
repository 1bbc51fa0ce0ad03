package io.github.resiliencestarter.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.testsupport.RealServers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The idempotency table on a real, empty MariaDB or PostgreSQL database: created by the shipped
 * Flyway migration or Liquibase changelog of that database, or missing, which fails the start with
 * the fix; and a transaction manager the completion cannot join, reported at start.
 */
class IdempotencySchemaStartupTest {

    private static ConfigurableApplicationContext start(Class<?> app, RealServers.Jdbc database,
            String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.datasource.url=" + database.url(),
                "spring.datasource.username=" + database.user(), "spring.datasource.password=" + database.password(),
                "resilience.idempotent.store=jdbc"));
        all.addAll(List.of(properties));
        // as command-line arguments, so they win over the module's application.properties
        return new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
                .run(all.stream().map(property -> "--" + property).toArray(String[]::new));
    }

    private static void assertIdempotentCallsWork(ConfigurableApplicationContext context) {
        Payments payments = context.getBean(Payments.class);
        assertThat(payments.pay("P-1")).isEqualTo("paid P-1 (1)");
        assertThat(payments.pay("P-1")).isEqualTo("paid P-1 (1)");
        assertThat(context.getBean(JdbcTemplate.class).queryForObject(
                "SELECT COUNT(*) FROM resilience_idempotency", Integer.class)).isEqualTo(1);
    }

    @Test
    void aFlywayManagedAppStartsWithTheShippedMigration() {
        try (ConfigurableApplicationContext context = start(App.class, RealServers.freshDatabase("it_flyway"),
                "spring.flyway.enabled=true", "spring.flyway.locations=classpath:db/resilience-starter/mysql")) {
            assertThat(context.getBean(JdbcTemplate.class).queryForObject(
                    "SELECT COUNT(*) FROM flyway_schema_history WHERE script = 'R__resilience_idempotency.sql'",
                    Integer.class)).isEqualTo(1);
            assertIdempotentCallsWork(context);
        }
    }

    @Test
    void aLiquibaseManagedAppStartsWithTheShippedChangelog() {
        try (ConfigurableApplicationContext context = start(App.class, RealServers.freshDatabase("it_liquibase"),
                "spring.liquibase.enabled=true", "spring.liquibase.change-log=classpath:db/resilience-starter/changelog.yaml")) {
            assertIdempotentCallsWork(context);
        }
    }

    @Test
    void aMissingTableFailsTheStartNamingThePropertyAndTheMigrations() {
        RealServers.Jdbc empty = RealServers.freshDatabase("it_missing");
        assertThatThrownBy(() -> start(App.class, empty).close())
                .hasStackTraceContaining("The idempotency table 'resilience_idempotency' is missing")
                .hasStackTraceContaining("resilience.idempotent.jdbc.initialize-schema=always")
                .hasStackTraceContaining("classpath:db/resilience-starter/mysql")
                .hasStackTraceContaining("db/resilience-starter/changelog.yaml");
    }

    @Test
    void aFlywayManagedAppStartsOnPostgresWithTheShippedMigration() {
        try (ConfigurableApplicationContext context = start(App.class,
                RealServers.freshDatabase(RealServers.postgres(), "it_flyway"), "spring.flyway.enabled=true",
                "spring.flyway.locations=classpath:db/resilience-starter/postgresql")) {
            assertThat(context.getBean(JdbcTemplate.class).queryForObject(
                    "SELECT COUNT(*) FROM flyway_schema_history WHERE script = 'R__resilience_idempotency.sql'",
                    Integer.class)).isEqualTo(1);
            assertIdempotentCallsWork(context);
        }
    }

    @Test
    void aLiquibaseManagedAppStartsOnPostgresWithTheShippedChangelog() {
        try (ConfigurableApplicationContext context = start(App.class,
                RealServers.freshDatabase(RealServers.postgres(), "it_liquibase"), "spring.liquibase.enabled=true",
                "spring.liquibase.change-log=classpath:db/resilience-starter/changelog.yaml")) {
            // only PostgreSQL's changeSet ran: the others are for other databases
            assertThat(context.getBean(JdbcTemplate.class).queryForList("SELECT id FROM databasechangelog",
                    String.class)).containsExactly("resilience-idempotency-1-postgresql");
            assertIdempotentCallsWork(context);
        }
    }

    @Test
    void aMissingTableOnPostgresFailsTheStartNamingPostgresMigration() {
        RealServers.Jdbc empty = RealServers.freshDatabase(RealServers.postgres(), "it_missing");
        assertThatThrownBy(() -> start(App.class, empty).close())
                .hasStackTraceContaining("The idempotency table 'resilience_idempotency' is missing")
                .hasStackTraceContaining("classpath:db/resilience-starter/postgresql to spring.flyway.locations")
                .hasStackTraceContaining("db/resilience-starter/changelog.yaml");
    }

    @Test
    void IP6_aTransactionManagerTheCompletionCannotJoinFailsTheStartWhenRequired() {
        RealServers.Jdbc database = RealServers.freshDatabase("it_foreign_tx");
        assertThatThrownBy(() -> start(ForeignTransactionsApp.class, database,
                "resilience.idempotent.jdbc.initialize-schema=always",
                "resilience.idempotent.jdbc.require-transactional-completion=true").close())
                .hasStackTraceContaining("Transaction manager 'otherTransactionManager'")
                .hasStackTraceContaining("rule I-P6");
        // without the requirement it starts (and warns)
        try (ConfigurableApplicationContext context = start(ForeignTransactionsApp.class, database,
                "resilience.idempotent.jdbc.initialize-schema=always")) {
            assertIdempotentCallsWork(context);
        }
    }

    static class Payments {

        private final AtomicInteger executions = new AtomicInteger();

        @Idempotent(key = "#paymentNo", name = "PAY")
        public String pay(String paymentNo) {
            return "paid " + paymentNo + " (" + executions.incrementAndGet() + ")";
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Payments.class)
    static class App {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Payments.class)
    static class ForeignTransactionsApp {

        @Bean
        DataSourceTransactionManager otherTransactionManager() {
            return new DataSourceTransactionManager(new DriverManagerDataSource("jdbc:h2:mem:other"));
        }
    }
}
