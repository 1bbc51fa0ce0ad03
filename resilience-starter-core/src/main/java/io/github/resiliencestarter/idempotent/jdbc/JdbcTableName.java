package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.core.InvalidSettingException;

/**
 * The one check of the idempotency table's name, before it is put into SQL. A class of its own,
 * free of Spring's JDBC classes: property validation calls it in applications that have none.
 */
public final class JdbcTableName {

    private JdbcTableName() {
    }

    /**
     * Checks a table name.
     *
     * @param table letters, digits and underscores, not starting with a digit, at most 64 characters
     * @throws InvalidSettingException naming {@code table}
     */
    public static void check(String table) {
        if (table == null || !table.matches("[A-Za-z_][A-Za-z0-9_]{0,63}")) {
            throw new InvalidSettingException("table", "must be letters, digits and underscores, not starting "
                    + "with a digit, at most 64 characters", table);
        }
    }
}
