package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.StoredResponse;
import io.github.resiliencestarter.idempotent.support.DuplicateShare;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Idempotency records in a SQL table (created by the scripts under {@code db/resilience-starter/} in this jar).
 *
 * <p>Claim = INSERT on the unique key (the {@link JdbcDialect} chooses the form: {@code INSERT IGNORE}
 * on MySQL and MariaDB, {@code ON CONFLICT DO NOTHING} on PostgreSQL), committed at once (in a transaction of its own when the caller has one) so duplicates see it; a duplicate key
 * means someone else holds it (the existing row is read back). While most recent claims of an
 * operation met an existing row, a claim outside a transaction reads first, so a replay is one
 * round trip ({@link DuplicateShare}); the insert still decides alone who owns a new key. An expired row is
 * deleted and claimed anew; an IN_PROGRESS row with an expired lease is taken over, by a claim with
 * the same fingerprint only, with a conditional UPDATE that compares the previous owner and lease
 * (compare-and-set). Completion,
 * release and lease extension are UPDATE/DELETE statements conditional on the owner token.
 * Completion joins the caller's transaction when there is one.
 *
 * <p>Optional capability, rule I-P6: {@link #commitWithCurrentTransaction(IdempotentExecution)}
 * turns the owned row COMMITTED inside the business transaction that is beginning, so business
 * writes and the key commit together or not at all; the response follows right after the commit
 * ({@link JdbcTransactionalCompletion} calls it from the transaction manager). Expired rows are ignored on read and purged in
 * batches by {@link #purgeExpired(int)}.
 */
public class JdbcIdempotencyStore implements IdempotencyStore {

    /** Default table name. */
    public static final String DEFAULT_TABLE = "resilience_idempotency";

    private static final int CLAIM_ROUNDS = 4;

    private final JdbcTemplate jdbc;

    private final DataSource dataSource;

    private final @Nullable TransactionTemplate ownTransaction;

    private final TimeSource time;

    private final String table;

    /** Per operation: whether its claims mostly meet keys that exist, so reading first saves a round trip. */
    private final ConcurrentHashMap<String, DuplicateShare> duplicateShares = new ConcurrentHashMap<>();

    private final RowMapper<IdempotencyRecord> rows = this::toRecord;

    private volatile @Nullable JdbcDialect dialect;

    /** The dialect's claim statement, known with the dialect. */
    private volatile @Nullable String claimInsert;

    // Statements built once for the table: a call pays neither for concatenating them nor, with
    // typed setters, for the driver's search of a codec for each untyped parameter.
    private final String selectRecord;

    private final String deleteExpired;

    private final String takeOver;

    private final String completeOwned;

    private final String releaseOwned;

    private final String markCommitted;

    private final String extendOwned;

    /**
     * Creates the store.
     *
     * @param dataSource the database
     * @param transactionManager the manager of that database's transactions, or {@code null}; with
     *     one, claims commit in a transaction of their own even inside a caller's transaction
     * @param table the table name (letters, digits, underscores)
     * @param time the wall clock for leases and expiry; nodes should agree within a fraction of a lease
     */
    public JdbcIdempotencyStore(DataSource dataSource, @Nullable PlatformTransactionManager transactionManager,
            String table, TimeSource time) {
        JdbcTableName.check(table);
        this.jdbc = new BudgetBoundJdbcTemplate(dataSource);
        this.dataSource = dataSource;
        this.table = table;
        this.time = time;
        String inProgress = "'" + IdempotencyStatus.IN_PROGRESS.name() + "'";
        this.selectRecord = "SELECT idempotency_key, business_type, fingerprint, status, owner_token,"
                + " lease_expire_time, expire_time, response_data, response_type, create_time FROM " + table
                + " WHERE idempotency_key = ?";
        this.deleteExpired = "DELETE FROM " + table + " WHERE idempotency_key = ? AND expire_time = ?";
        this.takeOver = "UPDATE " + table + " SET owner_token = ?, lease_expire_time = ?, expire_time = ?"
                + " WHERE idempotency_key = ?"
                + " AND status = " + inProgress + " AND owner_token = ? AND lease_expire_time = ?";
        this.completeOwned = "UPDATE " + table + " SET status = '" + IdempotencyStatus.COMPLETED.name()
                + "', response_data = ?, response_type = ?, expire_time = ? WHERE idempotency_key = ?"
                + " AND owner_token = ? AND status IN (" + inProgress + ", '" + IdempotencyStatus.COMMITTED.name()
                + "')";
        this.releaseOwned = "DELETE FROM " + table + " WHERE idempotency_key = ? AND owner_token = ? AND status = "
                + inProgress;
        this.markCommitted = "UPDATE " + table + " SET status = '" + IdempotencyStatus.COMMITTED.name()
                + "' WHERE idempotency_key = ? AND owner_token = ? AND status = " + inProgress;
        // a COMMITTED row's lease is kept too while its response is being written (duplicates wait for it)
        this.extendOwned = "UPDATE " + table + " SET lease_expire_time = ? WHERE idempotency_key = ?"
                + " AND owner_token = ? AND status IN (" + inProgress + ", '" + IdempotencyStatus.COMMITTED.name()
                + "')";
        if (transactionManager != null) {
            this.ownTransaction = new TransactionTemplate(transactionManager);
            this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        } else {
            this.ownTransaction = null;
        }
    }

    @Override
    public ClaimResult claim(Claim claim) {
        String key = claim.key();
        DuplicateShare duplicates = duplicateShares.computeIfAbsent(claim.name(), name -> new DuplicateShare());
        return call(() -> inOwnTransaction(() -> {
            // the order of the two statements only decides how soon an existing row is seen; only
            // in auto-commit, where each statement reads the latest rows: in a transaction a read
            // before the insert would fix a snapshot without the row a concurrent claim just committed
            boolean readFirst = duplicates.readFirst() && !TransactionSynchronizationManager.isActualTransactionActive();
            boolean recorded = false;
            for (int round = 0; round < CLAIM_ROUNDS; round++) {
                long now = time.epochMillis();
                IdempotencyRecord found = readFirst ? read(key) : null;
                if (found == null) {
                    if (insert(claim, now)) {
                        if (!recorded) {
                            duplicates.record(false);
                        }
                        return ClaimResult.claimed();
                    }
                    found = read(key);
                }
                if (!recorded) {
                    duplicates.record(true);
                    recorded = true;
                }
                if (found == null) {
                    continue;
                }
                IdempotencyRecord existing = found;
                if (existing.expiresAt() <= now) {
                    jdbc.update(deleteExpired, ps -> {
                        ps.setString(1, key);
                        ps.setLong(2, existing.expiresAt());
                    });
                    continue;
                }
                // an expired lease is taken over only by the same payload; another gets the record (422)
                if (existing.isLeaseExpired(now) && existing.fingerprint().equals(claim.fingerprint())) {
                    long lease = now + claim.leaseMillis();
                    // the new owner's row lives for a full time to live from now, as a fresh claim's does
                    int taken = jdbc.update(takeOver, ps -> {
                        ps.setString(1, claim.ownerToken());
                        ps.setLong(2, lease);
                        ps.setLong(3, now + claim.ttlMillis());
                        ps.setString(4, key);
                        ps.setString(5, existing.ownerToken());
                        ps.setLong(6, existing.leaseExpiresAt());
                    });
                    if (taken == 1) {
                        return ClaimResult.takenOver();
                    }
                    continue;
                }
                return ClaimResult.exists(existing);
            }
            throw new IdempotencyStoreException("Could not claim an idempotency key after " + CLAIM_ROUNDS
                    + " rounds of concurrent changes", null);
        }));
    }

    @Override
    public boolean complete(Completion completion) {
        // joins the caller's transaction when there is one; also fills in the response of a COMMITTED row
        StoredResponse response = completion.response();
        long expiry = time.epochMillis() + completion.ttlMillis();
        return call(() -> jdbc.update(completeOwned, ps -> {
            ps.setString(1, response.payload());
            ps.setString(2, response.type());
            ps.setLong(3, expiry);
            ps.setString(4, completion.key());
            ps.setString(5, completion.ownerToken());
        }) == 1);
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return call(() -> inOwnTransaction(() -> jdbc.update(releaseOwned, key, ownerToken) == 1));
    }

    /**
     * Makes the transaction that is beginning on this thread carry the execution's key: just
     * before it commits, the owned IN_PROGRESS row turns COMMITTED in the same transaction, so the
     * business writes and the key commit together or not at all (rule I-P6). Only the outermost
     * transaction of an execution carries the marker; after a rollback the next one does. If the
     * claim was lost meanwhile (its lease expired and another execution took it over), the
     * marker finds no row and the commit fails with {@link IdempotencyClaimLostException}, rolling
     * the business writes back. Once an attempt's transaction committed, a transaction of a later
     * attempt of the same execution is rolled back ({@link IdempotentAttemptCommittedException}):
     * the writes of one execution commit once.
     *
     * @param execution the idempotent execution the transaction runs in
     */
    public void commitWithCurrentTransaction(IdempotentExecution execution) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        TraceContext context = TraceContextHolder.current();
        if (execution.isRepeatedAttempt(context)) {
            // another attempt of the same retried call committed the execution's writes: not these too
            int committed = execution.committedAttempt();
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void beforeCommit(boolean readOnly) {
                    throw new IdempotentAttemptCommittedException(committed, context.attempt());
                }
            });
            return;
        }
        if (!execution.carryCommitMarker()) {
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void beforeCommit(boolean readOnly) {
                int marked = jdbc.update(markCommitted, execution.key(), execution.ownerToken());
                if (marked != 1) {
                    throw new IdempotencyClaimLostException(execution.key());
                }
            }

            @Override
            public void afterCompletion(int status) {
                if (status == STATUS_COMMITTED) {
                    execution.recordCommit(context);
                } else {
                    execution.dropCommitMarker();
                }
            }
        });
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        return call(() -> inOwnTransaction(() -> {
            long lease = time.epochMillis() + leaseMillis;
            return jdbc.update(extendOwned, ps -> {
                ps.setLong(1, lease);
                ps.setString(2, key);
                ps.setString(3, ownerToken);
            }) == 1;
        }));
    }

    @Override
    public @Nullable IdempotencyRecord find(String key) {
        IdempotencyRecord record = call(() -> read(key));
        return record == null || record.expiresAt() <= time.epochMillis() ? null : record;
    }

    @Override
    public void ping() {
        call(() -> jdbc.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE idempotency_key = ''",
                Integer.class));
    }

    /**
     * Inserts a new IN_PROGRESS row.
     *
     * @return {@code false} when the key already has a row
     */
    private boolean insert(Claim claim, long now) {
        JdbcDialect dialect = dialect();
        String statement = claimInsert;
        if (statement == null) {
            statement = dialect.claimInsert(table);
            claimInsert = statement;
        }
        try {
            return jdbc.update(statement, ps -> {
                ps.setString(1, claim.key());
                ps.setString(2, claim.name());
                ps.setString(3, claim.fingerprint());
                ps.setString(4, IdempotencyStatus.IN_PROGRESS.name());
                ps.setString(5, claim.ownerToken());
                ps.setLong(6, now + claim.leaseMillis());
                ps.setLong(7, now);
                ps.setLong(8, now + claim.ttlMillis());
            }) == 1;
        } catch (DataIntegrityViolationException duplicate) {
            // where the dialect inserts nothing for a duplicate, this is another violation: a store failure
            if (!dialect.duplicateRaisesError()) {
                throw duplicate;
            }
            return false;
        }
    }

    /**
     * The dialect of this store's database, asked once it is reachable (a store may be created
     * while the database is down).
     *
     * @return the dialect
     */
    public JdbcDialect dialect() {
        JdbcDialect known = dialect;
        if (known == null) {
            known = call(() -> jdbc.execute((Connection connection) -> JdbcDialect.of(connection)));
            dialect = known;
        }
        return known;
    }

    /**
     * Deletes up to {@code batchSize} expired rows.
     *
     * @param batchSize the most rows deleted
     * @return the rows deleted
     */
    public int purgeExpired(int batchSize) {
        JdbcDialect dialect = dialect();
        String statement = dialect.purgeStatement(table, batchSize);
        if (statement != null) {
            return call(() -> inOwnTransaction(() -> jdbc.update(statement, time.epochMillis())));
        }
        return call(() -> inOwnTransaction(() -> {
            List<Long> ids = jdbc.queryForList(dialect.expiredIdsQuery(table, batchSize), Long.class,
                    time.epochMillis());
            if (ids.isEmpty()) {
                return 0;
            }
            String marks = String.join(",", Collections.nCopies(ids.size(), "?"));
            return jdbc.update("DELETE FROM " + table + " WHERE id IN (" + marks + ") AND expire_time <= ?",
                    append(ids, time.epochMillis()));
        }));
    }

    /**
     * The database this store writes to.
     *
     * @return the data source
     */
    public DataSource dataSource() {
        return dataSource;
    }

    private @Nullable IdempotencyRecord read(String key) {
        List<IdempotencyRecord> found = jdbc.query(selectRecord, ps -> ps.setString(1, key), rows);
        return found.isEmpty() ? null : found.get(0);
    }

    private IdempotencyRecord toRecord(ResultSet rs, int row) throws SQLException {
        IdempotencyStatus status;
        try {
            status = IdempotencyStatus.valueOf(String.valueOf(rs.getString(4)));
        } catch (IllegalArgumentException ex) {
            throw new IdempotencyRecordCorruptedException("unknown status in the table", ex);
        }
        return new IdempotencyRecord(rs.getString(1), rs.getString(2), rs.getString(3), status, rs.getString(5),
                rs.getLong(6), rs.getLong(7), StoredResponse.read(rs.getString(9), rs.getString(8)), rs.getLong(10));
    }

    private <T> T inOwnTransaction(Supplier<T> work) {
        // a transaction of our own only matters inside a caller's: alone, auto-commit already commits at once
        if (ownTransaction == null || !TransactionSynchronizationManager.isActualTransactionActive()) {
            return work.get();
        }
        // the work answers non-null, so the template hands back non-null
        return Objects.requireNonNull(ownTransaction.execute(status -> work.get()));
    }

    private static Object[] append(List<Long> ids, long last) {
        Object[] args = ids.toArray(new Object[ids.size() + 1]);
        args[ids.size()] = last;
        return args;
    }

    private static <T> T call(Supplier<T> operation) {
        try {
            return operation.get();
        } catch (DataAccessException | TransactionException ex) {
            Deadline deadline = TraceContextHolder.current().deadline();
            if (deadline != null && deadline.isExpired()) {
                // the statement was cut at the caller's deadline: out of budget, not a store outage
                throw new DeadlineExceededException("idempotency claim", DeadlineExceededException.Reason.TIMED_OUT,
                        null, ex);
            }
            throw new IdempotencyStoreException("JDBC idempotency store unavailable: " + ex.getMessage(), ex);
        }
    }

    /**
     * Bounds each of the store's statements by the caller's remaining budget (rule T-P4): a claim
     * waiting on a lock or a slow server never outlives the request that asked for it. A
     * settlement runs without a deadline, so it is never cut short.
     */
    private static final class BudgetBoundJdbcTemplate extends JdbcTemplate {

        BudgetBoundJdbcTemplate(DataSource dataSource) {
            super(dataSource);
        }

        @Override
        protected void applyStatementSettings(Statement statement) throws SQLException {
            super.applyStatementSettings(statement);
            Deadline deadline = TraceContextHolder.current().deadline();
            if (deadline == null) {
                return;
            }
            int seconds = deadline.remainingQueryTimeoutSeconds();
            if (seconds == 0) {
                throw new SQLTimeoutException("the caller's deadline has passed");
            }
            int configured = statement.getQueryTimeout();
            if (configured == 0 || seconds < configured) {
                statement.setQueryTimeout(seconds);
            }
        }
    }
}
