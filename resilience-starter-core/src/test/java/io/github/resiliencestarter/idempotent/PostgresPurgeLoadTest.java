package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.testsupport.StoreFixtures;
import javax.sql.DataSource;

/** Rule I-6 at scale ({@link JdbcPurgeLoadTest}) on a real PostgreSQL server: the one-statement purge. */
class PostgresPurgeLoadTest extends JdbcPurgeLoadTest {

    @Override
    protected DataSource dataSource() {
        return StoreFixtures.postgresDataSource();
    }
}
