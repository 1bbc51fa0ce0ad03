package io.github.resiliencestarter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.testsupport.RealServers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Per-user isolation with the JDBC store on MariaDB, in the JPA transactions of the business. */
@SpringBootTest(classes = SecuredOrdersApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"resilience.idempotent.store=jdbc", "resilience.idempotent.jdbc.initialize-schema=always"})
class JdbcCrossUserIsolationTest extends CrossUserIsolationContractTest {

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerDataSource(registry);
    }

    @Autowired
    private IdempotencyStore store;

    @Test
    void theJdbcStoreIsInUse() {
        assertThat(store).isInstanceOf(JdbcIdempotencyStore.class);
    }
}
