package io.github.resiliencestarter.spring.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Rule T-P4 on a real MySQL-compatible server. */
class DeadlineBoundDataSourceTest {

    private final JdbcTemplate jdbc = new JdbcTemplate(new DeadlineBoundDataSource(StoreFixtures.mysqlDataSource()));

    private static TraceScope budget(Duration budget) {
        return TraceContextHolder.open(TraceContext.empty().withDeadline(Deadline.after(budget)));
    }

    @Test
    void TP4_aSlowStatementIsBoundedByTheRemainingBudget() {
        long start = System.nanoTime();
        try (TraceScope scope = budget(Duration.ofSeconds(1))) {
            assertThatThrownBy(() -> jdbc.queryForObject("SELECT SLEEP(5)", Integer.class))
                    .isInstanceOf(DeadlineExceededException.class);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2500));
    }

    @Test
    void TP4_aSpentBudgetSendsNoStatement() throws Exception {
        try (TraceScope scope = budget(Duration.ofMillis(1))) {
            Thread.sleep(5);
            assertThatThrownBy(() -> jdbc.queryForObject("SELECT 1", Integer.class))
                    .isInstanceOf(DeadlineExceededException.class).hasMessageContaining("was not invoked");
        }
    }

    @Test
    void statementsWithinTheBudgetOrWithoutOneRunNormally() {
        assertThat(jdbc.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
        try (TraceScope scope = budget(Duration.ofSeconds(5))) {
            assertThat(jdbc.queryForObject("SELECT 2", Integer.class)).isEqualTo(2);
        }
    }
}
