package io.github.resiliencestarter.idempotent.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The database product names the JDBC drivers report, and what each dialect says. */
class JdbcDialectTest {

    @Test
    void eachDriversProductNameFindsItsDialect() {
        assertThat(JdbcDialect.of("MySQL")).isEqualTo(JdbcDialect.MYSQL);
        assertThat(JdbcDialect.of("MariaDB")).isEqualTo(JdbcDialect.MYSQL);
        assertThat(JdbcDialect.of("PostgreSQL")).isEqualTo(JdbcDialect.POSTGRESQL);
        assertThat(JdbcDialect.of("H2")).isEqualTo(JdbcDialect.H2);
        assertThat(JdbcDialect.of("HSQL Database Engine")).isEqualTo(JdbcDialect.HSQLDB);
        assertThat(JdbcDialect.of("Apache Derby")).isEqualTo(JdbcDialect.DERBY);
        assertThat(JdbcDialect.of("Microsoft SQL Server")).isEqualTo(JdbcDialect.OTHER);
        assertThat(JdbcDialect.of((String) null)).isEqualTo(JdbcDialect.OTHER);
    }

    @Test
    void onlyTheDialectsWithoutANativeFormLetADuplicateClaimRaiseAnError() {
        assertThat(JdbcDialect.MYSQL.claimInsert("t")).startsWith("INSERT IGNORE INTO t ");
        assertThat(JdbcDialect.POSTGRESQL.claimInsert("t")).startsWith("INSERT INTO t ")
                .endsWith(" ON CONFLICT (idempotency_key) DO NOTHING");
        assertThat(JdbcDialect.MYSQL.duplicateRaisesError()).isFalse();
        assertThat(JdbcDialect.POSTGRESQL.duplicateRaisesError()).isFalse();
        assertThat(JdbcDialect.H2.duplicateRaisesError()).isTrue();
        assertThat(JdbcDialect.HSQLDB.duplicateRaisesError()).isTrue();
        assertThat(JdbcDialect.OTHER.duplicateRaisesError()).isTrue();
    }

    @Test
    void postgresqlPurgesInOneStatementWithoutDeleteLimit() {
        assertThat(JdbcDialect.POSTGRESQL.purgeStatement("t", 500))
                .startsWith("DELETE FROM t WHERE id IN (SELECT id FROM t WHERE expire_time <= ?")
                .contains("LIMIT 500 FOR UPDATE SKIP LOCKED)");
        assertThat(JdbcDialect.MYSQL.purgeStatement("t", 500)).isNull();
    }

    @Test
    void eachDialectShipsItsOwnScript() {
        assertThat(JdbcDialect.POSTGRESQL.schemaScript()).isEqualTo(JdbcIdempotencySchema.POSTGRESQL_SCRIPT);
        assertThat(JdbcDialect.MYSQL.schemaScript()).isEqualTo(JdbcIdempotencySchema.MYSQL_SCRIPT);
        assertThat(JdbcDialect.H2.schemaScript()).isEqualTo(JdbcIdempotencySchema.H2_SCRIPT);
        assertThat(JdbcDialect.HSQLDB.schemaScript()).isEqualTo(JdbcIdempotencySchema.HSQLDB_SCRIPT);
        assertThat(JdbcDialect.DERBY.schemaScript()).isEqualTo(JdbcIdempotencySchema.DERBY_SCRIPT);
        assertThat(JdbcDialect.DERBY.expiredIdsQuery("t", 5)).endsWith("FETCH FIRST 5 ROWS ONLY");
        assertThat(JdbcDialect.H2.expiredIdsQuery("t", 5)).endsWith("LIMIT 5");
        // no guess for a database the starter does not know: the MySQL script failed HSQLDB's start
        assertThat(JdbcDialect.OTHER.schemaScript()).isNull();
    }
}
