package io.github.resiliencestarter.idempotent.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What differs between the databases the JDBC idempotency store knows: the claim statement, the
 * batched purge and the shipped schema script. The one place that decides per database; the
 * store and {@link JdbcIdempotencySchema} ask it and never test the product themselves.
 *
 * <p>Every statement takes the same parameters on every dialect: the claim the eight columns of
 * {@link #claimInsert(String)}, the purge the expiry limit.
 */
public enum JdbcDialect {

    /** MySQL 8 and MariaDB: {@code INSERT IGNORE}, so a duplicate costs no exception. */
    MYSQL(JdbcIdempotencySchema.MYSQL_SCRIPT) {
        @Override
        public String claimInsert(String table) {
            return "INSERT IGNORE" + insertInto(table);
        }
    },

    /**
     * PostgreSQL: {@code ON CONFLICT (idempotency_key) DO NOTHING}. A duplicate must never raise
     * an error here, because an error aborts the surrounding PostgreSQL transaction. Naming the
     * key as the conflict target also makes a table without its unique key fail loudly instead of
     * accepting duplicates.
     */
    POSTGRESQL(JdbcIdempotencySchema.POSTGRESQL_SCRIPT) {
        @Override
        public String claimInsert(String table) {
            return "INSERT" + insertInto(table) + " ON CONFLICT (idempotency_key) DO NOTHING";
        }

        @Override
        public @Nullable String purgeStatement(String table, int batchSize) {
            // SKIP LOCKED: purgers on several nodes, and a claim replacing an expired row, never wait on each other
            return "DELETE FROM " + table + " WHERE id IN (SELECT id FROM " + table + " WHERE expire_time <= ?"
                    + " ORDER BY expire_time LIMIT " + Math.max(1, batchSize) + " FOR UPDATE SKIP LOCKED)";
        }
    },

    /** H2: a plain {@code INSERT}; a duplicate raises an error, which H2 survives inside a transaction. */
    H2(JdbcIdempotencySchema.H2_SCRIPT),

    /** HSQLDB: as H2, a plain {@code INSERT} whose duplicate raises an error the transaction survives. */
    HSQLDB(JdbcIdempotencySchema.HSQLDB_SCRIPT),

    /**
     * Apache Derby: a plain {@code INSERT} whose duplicate raises an error the transaction survives,
     * and {@code FETCH FIRST} where the others say {@code LIMIT}.
     */
    DERBY(JdbcIdempotencySchema.DERBY_SCRIPT) {
        @Override
        public String expiredIdsQuery(String table, int batchSize) {
            return "SELECT id FROM " + table + " WHERE expire_time <= ? ORDER BY expire_time FETCH FIRST "
                    + Math.max(1, batchSize) + " ROWS ONLY";
        }
    },

    /**
     * Any other database: a plain {@code INSERT} whose duplicate-key error means "someone holds
     * the key"; the starter has no script for it and does not guess one (the table is the user's).
     */
    OTHER(null);

    private final @Nullable String schemaScript;

    JdbcDialect(@Nullable String schemaScript) {
        this.schemaScript = schemaScript;
    }

    /**
     * The dialect of a database product.
     *
     * @param productName what {@link java.sql.DatabaseMetaData#getDatabaseProductName()} answers
     * @return its dialect, {@link #OTHER} when unknown
     */
    public static JdbcDialect of(@Nullable String productName) {
        String product = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (product.contains("mysql") || product.contains("mariadb")) {
            return MYSQL;
        }
        if (product.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (product.startsWith("hsql")) {
            return HSQLDB;
        }
        if (product.contains("derby")) {
            return DERBY;
        }
        return "h2".equals(product) ? H2 : OTHER;
    }

    /**
     * The dialect of the database a connection is open to.
     *
     * @param connection an open connection
     * @return its dialect
     * @throws SQLException when the metadata cannot be read
     */
    public static JdbcDialect of(Connection connection) throws SQLException {
        return of(connection.getMetaData().getDatabaseProductName());
    }

    /**
     * The statement that inserts a new IN_PROGRESS row, with the parameters idempotency key,
     * business type, fingerprint, status, owner token, lease expiry, create time, expiry.
     *
     * @param table the table name (already checked)
     * @return the SQL; it inserts one row, or none when the key exists (see {@link #duplicateRaisesError()})
     */
    public String claimInsert(String table) {
        return "INSERT" + insertInto(table);
    }

    /**
     * Whether a claim of an existing key fails with a duplicate-key error rather than inserting
     * nothing.
     *
     * @return {@code true} for {@link #H2}, {@link #HSQLDB}, {@link #DERBY} and {@link #OTHER}
     */
    public boolean duplicateRaisesError() {
        return this == H2 || this == HSQLDB || this == DERBY || this == OTHER;
    }

    /**
     * One statement that deletes up to {@code batchSize} expired rows, the oldest first, with the
     * expiry limit as its one parameter; {@code null} where the database has none (MySQL refuses
     * {@code LIMIT} in an {@code IN} subquery), and the store selects the ids first.
     *
     * @param table the table name (already checked)
     * @param batchSize the most rows deleted
     * @return the SQL, or {@code null}
     */
    public @Nullable String purgeStatement(String table, int batchSize) {
        return null;
    }

    /**
     * The query for the ids of up to {@code batchSize} expired rows, the oldest first, with the
     * expiry limit as its one parameter: where {@link #purgeStatement} has no single statement.
     *
     * @param table the table name (already checked)
     * @param batchSize the most ids
     * @return the SQL
     */
    public String expiredIdsQuery(String table, int batchSize) {
        return "SELECT id FROM " + table + " WHERE expire_time <= ? ORDER BY expire_time LIMIT " + Math.max(1, batchSize);
    }

    /**
     * The shipped script that creates the table (a Flyway repeatable migration).
     *
     * @return its class path location, or {@code null} for {@link #OTHER}, which has none
     */
    public @Nullable String schemaScript() {
        return schemaScript;
    }

    private static String insertInto(String table) {
        return " INTO " + table + " (idempotency_key, business_type, fingerprint, status, owner_token,"
                + " lease_expire_time, create_time, expire_time) VALUES (?,?,?,?,?,?,?,?)";
    }
}
