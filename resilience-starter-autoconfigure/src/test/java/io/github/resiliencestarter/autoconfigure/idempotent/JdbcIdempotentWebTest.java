package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.testsupport.RealServers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@code @Idempotent} over HTTP on a real MySQL-compatible server. */
@SpringBootTest(classes = IdempotencyWebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"resilience.idempotent.store=jdbc", "resilience.idempotent.jdbc.initialize-schema=always"})
class JdbcIdempotentWebTest extends IdempotentWebContractTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        RealServers.registerDataSource(registry);
    }

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
