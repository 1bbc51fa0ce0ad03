package io.github.resiliencestarter.idempotent.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.util.StreamUtils;

/** Creates the idempotency table from the shipped script that fits the database. */
public final class JdbcIdempotencySchema {

    private static final String BASE = "io/github/resiliencestarter/idempotent/jdbc/";

    private JdbcIdempotencySchema() {
    }

    /**
     * Creates the table (and its indexes) unless it exists.
     *
     * @param dataSource the database
     * @param table the table name
     */
    public static void create(DataSource dataSource, String table) {
        String script = isH2(dataSource) ? "schema-h2.sql" : "schema-mysql.sql";
        try {
            String sql = StreamUtils.copyToString(new ClassPathResource(BASE + script).getInputStream(),
                    StandardCharsets.UTF_8).replace(JdbcIdempotencyStore.DEFAULT_TABLE, table);
            new ResourceDatabasePopulator(new ByteArrayResource(sql.getBytes(StandardCharsets.UTF_8)))
                    .execute(dataSource);
        } catch (IOException ex) {
            throw new IllegalStateException("Cannot read the idempotency schema " + script, ex);
        }
    }

    private static boolean isH2(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            return "H2".equalsIgnoreCase(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException ex) {
            throw new IllegalStateException("Cannot inspect the database for the idempotency schema", ex);
        }
    }
}
