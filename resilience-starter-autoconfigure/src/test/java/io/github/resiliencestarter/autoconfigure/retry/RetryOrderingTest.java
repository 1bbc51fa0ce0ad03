package io.github.resiliencestarter.autoconfigure.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** DESIGN §6: @Timeout → @Retry → @Transactional → method, each attempt in a fresh transaction. */
class RetryOrderingTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TimeoutAutoConfiguration.class, RetryAutoConfiguration.class))
            .withPropertyValues("resilience.retry.delay=5ms", "resilience.retry.max-delay=10ms")
            .withUserConfiguration(Database.class).withBean(OrderWriter.class);

    @Test
    void eachAttemptRunsInAFreshTransactionSoAFailedAttemptLeavesNoRow() {
        runner.run(context -> {
            OrderWriter writer = context.getBean(OrderWriter.class);
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);

            writer.insertFailingFirst("A-1");

            assertThat(jdbc.queryForObject("select count(*) from orders", Integer.class)).isEqualTo(1);
            assertThat(writer.attempts()).isEqualTo(2);
            assertThat(writer.transactions()).hasSize(2).doesNotHaveDuplicates();
        });
    }

    @Test
    void theDeadlineOfTheOuterTimeoutBoundsTheWholeRetryLoop() {
        runner.run(context -> {
            OrderWriter writer = context.getBean(OrderWriter.class);
            long start = System.nanoTime();
            assertThatThrownBy(writer::alwaysSlowAndFailing).isInstanceOfAny(RetryableException.class,
                    DeadlineExceededException.class);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(1_500);
            assertThat(context.getBean(JdbcTemplate.class).queryForObject("select count(*) from orders",
                    Integer.class)).isZero();
        });
    }

    static class OrderWriter {

        private final JdbcTemplate jdbc;

        private final AtomicInteger attempts = new AtomicInteger();

        private final List<Object> transactions = new ArrayList<>();

        OrderWriter(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        public int attempts() {
            return attempts.get();
        }

        public List<Object> transactions() {
            return transactions;
        }

        @Retry(idempotent = true)
        @Transactional
        public void insertFailingFirst(String orderNo) {
            transactions.add(TransactionSynchronizationManager.getResourceMap().values().iterator().next());
            jdbc.update("insert into orders(order_no) values (?)", orderNo);
            if (attempts.incrementAndGet() == 1) {
                throw new RetryableException("LOCK_WAIT", "lock wait timeout after the insert");
            }
        }

        @Timeout("300ms")
        @Retry(idempotent = true, maxAttempts = 10)
        @Transactional
        public void alwaysSlowAndFailing() throws InterruptedException {
            jdbc.update("insert into orders(order_no) values (?)", "slow-" + attempts.incrementAndGet());
            Thread.sleep(100);
            throw new RetryableException("DOWN", "still down");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class Database {

        @Bean(destroyMethod = "shutdown")
        DataSource dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true)
                    .addScript("classpath:orders-schema.sql").build();
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource dataSource) {
            return new JdbcTemplate(dataSource);
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }
    }
}
