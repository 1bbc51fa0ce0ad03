package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.core.StartupRefusedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.util.StreamUtils;

/**
 * The idempotency table: created from the shipped script that fits the database (chosen by its
 * {@link JdbcDialect}), and checked at startup. The scripts are the Flyway migrations the jar ships
 * ({@value #MYSQL_SCRIPT}, {@value #POSTGRESQL_SCRIPT}, {@value #H2_SCRIPT},
 * {@value #HSQLDB_SCRIPT}, {@value #DERBY_SCRIPT}); the Liquibase
 * changelog runs them too, so there is one definition per database.
 */
public final class JdbcIdempotencySchema {

    /** The MySQL 8 / MariaDB script, a Flyway repeatable migration. */
    public static final String MYSQL_SCRIPT = "db/resilience-starter/mysql/R__resilience_idempotency.sql";

    /** The PostgreSQL script, a Flyway repeatable migration. */
    public static final String POSTGRESQL_SCRIPT = "db/resilience-starter/postgresql/R__resilience_idempotency.sql";

    /** The H2 script, a Flyway repeatable migration. */
    public static final String H2_SCRIPT = "db/resilience-starter/h2/R__resilience_idempotency.sql";

    /** The HSQLDB script, a Flyway repeatable migration. */
    public static final String HSQLDB_SCRIPT = "db/resilience-starter/hsqldb/R__resilience_idempotency.sql";

    /** The Apache Derby script (Derby has no {@code IF NOT EXISTS}: run only while the table is missing). */
    public static final String DERBY_SCRIPT = "db/resilience-starter/derby/R__resilience_idempotency.sql";

    /** Where the scripts live, for a message to a user whose database has none. */
    private static final String SCRIPT_FOLDERS =
            "classpath:db/resilience-starter/mysql, /postgresql, /h2, /hsqldb or /derby";

    private static final Logger log = LoggerFactory.getLogger(JdbcIdempotencySchema.class);

    private JdbcIdempotencySchema() {
    }

    /**
     * Creates the table (and its indexes) unless it exists.
     *
     * @param dataSource the database
     * @param table the table name
     * @throws StartupRefusedException when the starter has no script for the database
     */
    public static void create(DataSource dataSource, String table) {
        create(dataSource, table, null);
    }

    /**
     * Creates the table (and its indexes) unless it exists.
     *
     * @param dataSource the database
     * @param table the table name
     * @param initializeProperty the property that asked for it, named when the database has no
     *     script; {@code null} when a program asked
     * @throws StartupRefusedException when the starter has no script for the database
     */
    public static void create(DataSource dataSource, String table, @Nullable String initializeProperty) {
        String product = productOf(dataSource);
        String script = JdbcDialect.of(product).schemaScript();
        if (script == null) {
            throw new StartupRefusedException("The starter has no script for the idempotency table on " + product
                    + (initializeProperty == null ? "" : ", which " + initializeProperty + " asks it to create") + ".",
                    "Create the table '" + table + "' yourself with the columns of the shipped scripts ("
                    + SCRIPT_FOLDERS + ")" + (initializeProperty == null ? "" : " and set " + initializeProperty
                    + "=never") + ", or use one of those databases.");
        }
        if (readable(dataSource, table)) {
            // already there: Derby's script, without IF NOT EXISTS, would fail on it
            return;
        }
        try {
            String sql = StreamUtils.copyToString(new ClassPathResource(script).getInputStream(),
                    StandardCharsets.UTF_8).replace(JdbcIdempotencyStore.DEFAULT_TABLE, table);
            new ResourceDatabasePopulator(new ByteArrayResource(sql.getBytes(StandardCharsets.UTF_8)))
                    .execute(dataSource);
        } catch (IOException ex) {
            throw new IllegalStateException("Cannot read the idempotency schema " + script, ex);
        }
    }

    /**
     * Fails when the database is reachable but the table is not there, so a missing table is a
     * start failure naming the fix rather than a 503 on every idempotent call. An unreachable
     * database only logs: the store answers 503 until it is back, as for any outage.
     *
     * @param dataSource the database
     * @param table the table name
     * @param initializeProperty the property that creates the table, named in the message
     * @throws StartupRefusedException when the table cannot be read
     */
    public static void verify(DataSource dataSource, String table, String initializeProperty) {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException ex) {
            log.warn("Could not reach the database to check the idempotency table {}; calls answer 503 until it "
                    + "is reachable ({})", table, ex.getMessage());
            return;
        }
        try (connection; Statement statement = connection.createStatement()) {
            // asked before the query: on PostgreSQL a failed statement can spoil what follows on the connection
            JdbcDialect dialect = JdbcDialect.of(connection);
            try {
                statement.executeQuery(probe(table)).close();
            } catch (SQLException ex) {
                throw missingTable(table, dialect, initializeProperty, ex);
            }
        } catch (SQLException ex) {
            throw missingTable(table, JdbcDialect.OTHER, initializeProperty, ex);
        }
    }

    private static StartupRefusedException missingTable(String table, JdbcDialect dialect, String initializeProperty,
            SQLException cause) {
        String script = dialect.schemaScript();
        // the folder of this database's script; all of them when the database has none of its own
        String flywayLocation = script == null ? SCRIPT_FOLDERS
                : "classpath:" + script.substring(0, script.lastIndexOf('/'));
        return new StartupRefusedException("The idempotency table '" + table + "' is missing or unreadable ("
                + cause.getMessage() + ").", "Create it with the migration shipped in the starter (Flyway: add "
                + flywayLocation + " to spring.flyway.locations; Liquibase: include "
                + "db/resilience-starter/changelog.yaml), or let the starter create it with "
                + initializeProperty + "=always.", cause);
    }

    private static boolean readable(DataSource dataSource, String table) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.executeQuery(probe(table)).close();
            return true;
        } catch (SQLException missing) {
            return false;
        }
    }

    private static String probe(String table) {
        return "SELECT idempotency_key, status, owner_token, lease_expire_time, response_type, response_data,"
                + " expire_time FROM " + table + " WHERE 1 = 0";
    }

    private static String productOf(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getDatabaseProductName();
        } catch (SQLException ex) {
            throw new IllegalStateException("Cannot inspect the database for the idempotency schema", ex);
        }
    }
}
