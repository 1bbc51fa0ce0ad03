package io.github.resiliencestarter.idempotent.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A database the starter ships no script for (SQL Server here, which no test server provides; the
 * driver objects stand in only for its name): asked to create the table, the starter refuses
 * before running any SQL, naming the database, the property and the fix.
 */
class JdbcIdempotencySchemaTest {

    @Test
    void aDatabaseWithoutAScriptIsRefusedNamingItThePropertyAndTheFix() throws SQLException {
        DataSource dataSource = mock(DataSource.class);
        Connection connection = mock(Connection.class);
        DatabaseMetaData metadata = mock(DatabaseMetaData.class);
        Statement statement = mock(Statement.class);
        when(dataSource.getConnection()).thenReturn(connection);
        when(connection.getMetaData()).thenReturn(metadata);
        when(connection.createStatement()).thenReturn(statement);
        when(statement.executeQuery(anyString())).thenThrow(new SQLException("Invalid object name"));
        when(metadata.getDatabaseProductName()).thenReturn("Microsoft SQL Server");

        assertThatThrownBy(() -> JdbcIdempotencySchema.create(dataSource, "resilience_idempotency",
                "resilience.idempotent.jdbc.initialize-schema"))
                .hasMessageContaining("no script for the idempotency table on Microsoft SQL Server")
                .hasMessageContaining("resilience.idempotent.jdbc.initialize-schema=never")
                .hasMessageContaining("/derby");
        verify(statement, never()).execute(anyString());
    }
}
