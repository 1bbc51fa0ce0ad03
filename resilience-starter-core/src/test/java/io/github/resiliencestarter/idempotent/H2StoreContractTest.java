package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.jdbc.JdbcDialect;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import javax.sql.DataSource;

/** The contract, and what only the JDBC store does, on an in-memory H2 database (an embedded database applications bring). */
class H2StoreContractTest extends JdbcStoreContractTest {

    @Override
    protected DataSource dataSource() {
        return StoreFixtures.h2DataSource();
    }

    @Override
    protected JdbcDialect expectedDialect() {
        return JdbcDialect.H2;
    }
}
