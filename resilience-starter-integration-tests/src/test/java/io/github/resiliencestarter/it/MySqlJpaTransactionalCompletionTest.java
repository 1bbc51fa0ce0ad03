package io.github.resiliencestarter.it;

import io.github.resiliencestarter.testsupport.RealServers;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Rule I-P6 with Spring Data JPA ({@link JpaTransactionalCompletionTest}) on a real MySQL-compatible server. */
class MySqlJpaTransactionalCompletionTest extends JpaTransactionalCompletionTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        RealServers.registerDataSource(registry);
    }
}
