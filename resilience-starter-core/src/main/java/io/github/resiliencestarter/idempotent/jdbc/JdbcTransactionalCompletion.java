package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.internal.PendingCompletion;
import io.github.resiliencestarter.idempotent.internal.StoredResponse;
import java.time.Clock;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Records an idempotent execution's completion inside its business transaction (rule I-P6).
 *
 * <p>Registered on the transaction manager of the store's DataSource. When the outermost
 * transaction of an idempotent attempt begins, it registers a synchronization that, just before
 * commit, turns the owned IN_PROGRESS row into COMPLETED with the response still pending, in the
 * same transaction as the business writes. Either both commit or neither does, so a crash can
 * never leave business effects committed with the key still claimable. If the claim was lost in
 * the meantime (the lease expired and another execution took it over), the marker finds no row
 * and the business transaction is rolled back. The response itself is written right after the
 * commit; duplicates wait for it.
 */
public class JdbcTransactionalCompletion implements TransactionExecutionListener {

    private final Supplier<JdbcIdempotencyStore> store;

    private final Clock clock;

    /**
     * Creates the listener.
     *
     * @param store the JDBC store on the DataSource the listened-to transaction manager manages,
     *     looked up when a transaction begins; {@code null} when there is none
     * @param clock the clock for the record's expiry
     */
    public JdbcTransactionalCompletion(Supplier<JdbcIdempotencyStore> store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    @Override
    public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
        PendingCompletion pending = PendingCompletion.current();
        if (beginFailure != null || pending == null || !transaction.isNewTransaction()
                || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        JdbcIdempotencyStore jdbcStore = store.get();
        if (jdbcStore == null || !pending.tryRegister()) {
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void beforeCommit(boolean readOnly) {
                JdbcTemplate jdbc = jdbcStore.jdbc();
                int marked = jdbc.update("UPDATE " + jdbcStore.table() + " SET status = ?, response_type = ?,"
                        + " expire_time = ? WHERE idempotency_key = ? AND owner_token = ? AND status = ?",
                        IdempotencyStatus.COMPLETED.name(), StoredResponse.PENDING,
                        clock.millis() + pending.ttlMillis(), pending.storedKey(), pending.ownerToken(),
                        IdempotencyStatus.IN_PROGRESS.name());
                if (marked != 1) {
                    throw new IdempotencyClaimLostException(pending.storedKey());
                }
            }

            @Override
            public void afterCompletion(int status) {
                pending.transactionEnded(status == STATUS_COMMITTED);
            }
        });
    }
}
