package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.jdbc.JdbcDialect;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import javax.sql.DataSource;

/** The contract, and what only the JDBC store does, on an in-memory Apache Derby database. */
class DerbyStoreContractTest extends JdbcStoreContractTest {

    @Override
    protected DataSource dataSource() {
        return StoreFixtures.derbyDataSource();
    }

    @Override
    protected JdbcDialect expectedDialect() {
        return JdbcDialect.DERBY;
    }
}
