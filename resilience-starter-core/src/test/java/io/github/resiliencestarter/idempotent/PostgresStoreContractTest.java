package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.jdbc.JdbcDialect;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import javax.sql.DataSource;

/** The contract, and what only the JDBC store does, on a real PostgreSQL server. */
class PostgresStoreContractTest extends JdbcStoreContractTest {

    @Override
    protected DataSource dataSource() {
        return StoreFixtures.postgresDataSource();
    }

    @Override
    protected JdbcDialect expectedDialect() {
        return JdbcDialect.POSTGRESQL;
    }
}
