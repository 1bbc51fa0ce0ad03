package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@code @Idempotent} over HTTP with the JDBC store on a real database; each subclass points
 * {@code spring.datasource.*} at one (MySQL-compatible, PostgreSQL).
 */
@SpringBootTest(classes = IdempotencyWebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"resilience.idempotent.store=jdbc", "resilience.idempotent.jdbc.initialize-schema=always"})
abstract class JdbcIdempotentWebTest extends IdempotentWebContractTest {

    @Autowired
    private IdempotencyStore store;

    @Autowired
    private org.springframework.jdbc.core.JdbcTemplate jdbc;

    @Override
    protected void corruptResponse(String storedKey) {
        jdbc.update("UPDATE resilience_idempotency SET response_data = 'garbage{not json' WHERE idempotency_key = ?",
                storedKey);
    }

    @Override
    protected void corruptStatus(String storedKey) {
        jdbc.update("UPDATE resilience_idempotency SET status = 'GARBAGE' WHERE idempotency_key = ?", storedKey);
    }

    @Test
    void theJdbcStoreIsInUse() {
        assertThat(store).isInstanceOf(JdbcIdempotencyStore.class);
    }
}
