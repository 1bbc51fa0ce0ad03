package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.testsupport.RealServers;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@code @Idempotent} over HTTP ({@link JdbcIdempotentWebTest}) on a real PostgreSQL server. */
class PostgresIdempotentWebTest extends JdbcIdempotentWebTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        RealServers.registerPostgresDataSource(registry);
    }
}
