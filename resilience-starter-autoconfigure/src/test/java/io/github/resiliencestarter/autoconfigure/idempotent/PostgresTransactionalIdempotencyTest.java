package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.testsupport.RealServers;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Rule I-P6 ({@link TransactionalIdempotencyTest}) on a real PostgreSQL server. */
class PostgresTransactionalIdempotencyTest extends TransactionalIdempotencyTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        RealServers.registerPostgresDataSource(registry);
    }
}
