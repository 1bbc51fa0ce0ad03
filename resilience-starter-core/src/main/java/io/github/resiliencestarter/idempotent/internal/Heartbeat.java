package io.github.resiliencestarter.idempotent.internal;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Extends an owned claim's lease every third of the lease while the work runs, so a long but
 * healthy execution keeps its key while a crashed one frees it within one lease. Stops by itself
 * when the claim was lost.
 */
public final class Heartbeat implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Heartbeat.class);

    private static final Heartbeat NONE = new Heartbeat(null);

    /** Leases shorter than this are not worth a heartbeat: the call ends or times out first. */
    private static final long MIN_LEASE_FOR_HEARTBEAT_MILLIS = 300;

    private static volatile ScheduledExecutorService shared;

    private volatile ScheduledFuture<?> future;

    private Heartbeat(ScheduledFuture<?> future) {
        this.future = future;
    }

    /**
     * Starts extending the lease.
     *
     * @param scheduler the scheduler
     * @param store the store
     * @param key the stored key
     * @param owner the owner token
     * @param leaseMillis the lease
     * @return the running heartbeat; close it when the work ends
     */
    public static Heartbeat start(ScheduledExecutorService scheduler, IdempotencyStore store, String key,
            String owner, long leaseMillis) {
        if (leaseMillis < MIN_LEASE_FOR_HEARTBEAT_MILLIS) {
            return NONE;
        }
        long period = leaseMillis / 3;
        Heartbeat heartbeat = new Heartbeat(null);
        heartbeat.future = scheduler.scheduleAtFixedRate(() -> {
            try {
                if (!store.extendLease(key, owner, leaseMillis)) {
                    heartbeat.close();
                }
            } catch (RuntimeException ex) {
                log.debug("Lease extension failed; retrying at the next beat", ex);
            }
        }, period, period, TimeUnit.MILLISECONDS);
        return heartbeat;
    }

    /**
     * The scheduler shared by executors that were given none: one daemon thread.
     *
     * @return the scheduler
     */
    public static ScheduledExecutorService sharedScheduler() {
        ScheduledExecutorService scheduler = shared;
        if (scheduler == null) {
            synchronized (Heartbeat.class) {
                scheduler = shared;
                if (scheduler == null) {
                    ScheduledThreadPoolExecutor created = new ScheduledThreadPoolExecutor(1, runnable -> {
                        Thread thread = new Thread(runnable, "resilience-idempotency-heartbeat");
                        thread.setDaemon(true);
                        return thread;
                    });
                    created.setRemoveOnCancelPolicy(true);
                    shared = created;
                    scheduler = created;
                }
            }
        }
        return scheduler;
    }

    @Override
    public void close() {
        ScheduledFuture<?> running = future;
        if (running != null) {
            running.cancel(false);
        }
    }
}
