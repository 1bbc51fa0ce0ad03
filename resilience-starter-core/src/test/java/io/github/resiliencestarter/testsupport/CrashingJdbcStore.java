package io.github.resiliencestarter.testsupport;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The JDBC store, able to "crash" when asked to write a completion: stands in for the process
 * dying right after the business transaction committed (rule I-P6 tests). While crashed, neither
 * the completion nor its retries nor a lease extension get through, as from a dead process.
 */
public class CrashingJdbcStore extends JdbcIdempotencyStore {

    private final AtomicBoolean crashOnComplete = new AtomicBoolean();

    /**
     * Creates the store on the default table.
     *
     * @param dataSource the business DataSource
     * @param transactions its transaction manager
     */
    public CrashingJdbcStore(DataSource dataSource, PlatformTransactionManager transactions) {
        super(dataSource, transactions, DEFAULT_TABLE, TimeSource.SYSTEM);
    }

    /**
     * Whether the next completions crash.
     *
     * @param crash {@code true} to crash
     */
    public void crashOnComplete(boolean crash) {
        crashOnComplete.set(crash);
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        if (crashOnComplete.get()) {
            throw new SimulatedCrash();
        }
        return super.extendLease(key, ownerToken, leaseMillis);
    }

    @Override
    public boolean complete(Completion completion) {
        if (crashOnComplete.get()) {
            throw new SimulatedCrash();
        }
        return super.complete(completion);
    }

    /** The "crash". */
    public static class SimulatedCrash extends RuntimeException {

        private static final long serialVersionUID = 1L;

        SimulatedCrash() {
            super("simulated crash after the business commit");
        }
    }
}
