package io.github.resiliencestarter.idempotent.jdbc;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Deletes expired rows in batches on a schedule (rule I-6). Each run repeats batches until one
 * finds fewer rows than the batch size, so a backlog is cleared without one long transaction that
 * would block claims.
 */
public class JdbcIdempotencyPurger implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(JdbcIdempotencyPurger.class);

    private final Supplier<@Nullable JdbcIdempotencyStore> store;

    private final Duration interval;

    private final int batchSize;

    private @Nullable ScheduledExecutorService scheduler;

    /**
     * Creates the purger.
     *
     * @param store the store
     * @param interval pause between runs; zero or negative schedules none ({@link #purgeNow()} still works)
     * @param batchSize rows per statement
     */
    public JdbcIdempotencyPurger(JdbcIdempotencyStore store, Duration interval, int batchSize) {
        this(() -> store, interval, batchSize);
    }

    /**
     * Creates a purger for a store that may not exist yet (it is created with the first
     * {@code @Idempotent} method); runs before then purge nothing.
     *
     * @param store the store, or {@code null} while it does not exist
     * @param interval pause between runs; zero or negative schedules none ({@link #purgeNow()} still works)
     * @param batchSize rows per statement
     */
    public JdbcIdempotencyPurger(Supplier<@Nullable JdbcIdempotencyStore> store, Duration interval, int batchSize) {
        this.store = store;
        this.interval = interval;
        this.batchSize = batchSize;
    }

    /**
     * Runs one purge: batches until the backlog is gone.
     *
     * @return the rows deleted
     */
    public long purgeNow() {
        JdbcIdempotencyStore existing = store.get();
        if (existing == null) {
            return 0;
        }
        long total = 0;
        int deleted;
        do {
            deleted = existing.purgeExpired(batchSize);
            total += deleted;
        } while (deleted >= batchSize);
        return total;
    }

    @Override
    public synchronized void start() {
        if (scheduler != null || interval.isZero() || interval.isNegative()) {
            return;
        }
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "resilience-idempotency-purge");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        executor.scheduleWithFixedDelay(() -> {
            try {
                long deleted = purgeNow();
                if (deleted > 0) {
                    log.debug("Purged {} expired idempotency records", deleted);
                }
            } catch (RuntimeException ex) {
                log.warn("Purging expired idempotency records failed; trying again in {}", interval, ex);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
        scheduler = executor;
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}
