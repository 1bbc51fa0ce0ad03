package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TraceContextHolder;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Records an idempotent execution's completion inside its business transaction (rule I-P6).
 *
 * <p>Registered on the transaction manager of the store's DataSource. When a new transaction
 * begins inside an idempotent execution (the trace context carries its
 * {@link IdempotentExecution}), it hands the execution to
 * {@link JdbcIdempotencyStore#commitWithCurrentTransaction(IdempotentExecution)}, which makes the
 * key commit together with the business writes.
 */
public class JdbcTransactionalCompletion implements TransactionExecutionListener {

    private final Supplier<@Nullable JdbcIdempotencyStore> store;

    /**
     * Creates the listener.
     *
     * @param store the JDBC store on the DataSource the listened-to transaction manager manages,
     *     looked up when a transaction begins; {@code null} when there is none
     */
    public JdbcTransactionalCompletion(Supplier<@Nullable JdbcIdempotencyStore> store) {
        this.store = store;
    }

    @Override
    public void afterBegin(TransactionExecution transaction, @Nullable Throwable beginFailure) {
        IdempotentExecution execution = TraceContextHolder.current().idempotentExecution();
        if (beginFailure != null || execution == null || !transaction.isNewTransaction()) {
            return;
        }
        JdbcIdempotencyStore jdbcStore = store.get();
        if (jdbcStore != null) {
            jdbcStore.commitWithCurrentTransaction(execution);
        }
    }
}
