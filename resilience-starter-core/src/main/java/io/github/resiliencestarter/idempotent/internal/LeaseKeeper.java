package io.github.resiliencestarter.idempotent.internal;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.Scheduler;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Extends the leases of running executions: every third of a lease, while the work runs, so a long
 * but healthy execution keeps its key while a crashed one frees it within one lease.
 *
 * <p>One timer thread checks all running executions a few times a second. Registering and
 * deregistering an execution is a set insert and remove: nothing is scheduled per call, which
 * keeps the common short call cheap under contention. The leases due at one tick go to their store
 * in batches of its {@link IdempotencyStore#leaseBatchSize()} (one each unless it pipelines), so
 * ten thousand held keys on Redis cost a few round trips a tick, not one blocking round trip each.
 */
public final class LeaseKeeper {

    /** How often running executions are checked. */
    public static final long TICK_MILLIS = 100;

    /** Leases shorter than this are not worth extending: the call ends or times out first. */
    public static final long MIN_LEASE_MILLIS = 300;

    /** Batches in flight at once at most; more wait for the next tick. */
    private static final int EXTENSION_THREADS = 8;


    private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);

    private static final LeaseKeeper SHARED = new LeaseKeeper(TimeSource.SYSTEM);

    private final Set<Lease> running = ConcurrentHashMap.newKeySet();

    private final TimeSource time;

    /**
     * Where extensions are made, off the timer thread: a store call that stalls holds up only its
     * own lease (skipped while in flight), never the others' on this node.
     */
    private final Executor extensions;

    /** {@code false} for a keeper a test ticks by hand. */
    private final boolean ticksItself;

    /** Where the ticks are scheduled when not on a timer thread of the keeper's own, else {@code null}. */
    private final @Nullable Scheduler ticks;

    /** The ticks were started (on the timer or the scheduler). */
    private volatile boolean started;

    /**
     * Creates a keeper.
     *
     * @param time the time source that decides when a lease is due for extension
     */
    public LeaseKeeper(TimeSource time) {
        this(time, extensionThreads(), true, null);
    }

    /**
     * Creates a keeper whose ticks and extensions run on {@code scheduler}, with no thread of its
     * own (the deterministic simulation runs the engine so).
     *
     * @param time the time source that decides when a lease is due for extension
     * @param scheduler where ticks are scheduled and extensions made
     */
    public LeaseKeeper(TimeSource time, Scheduler scheduler) {
        this(time, scheduler::execute, true, scheduler);
    }

    private LeaseKeeper(TimeSource time, Executor extensions, boolean ticksItself, @Nullable Scheduler ticks) {
        this.time = time;
        this.extensions = extensions;
        this.ticksItself = ticksItself;
        this.ticks = ticks;
    }

    /**
     * A keeper with no timer of its own, for unit tests of the engine: it checks its leases when
     * {@link #tick()} is called and extends them on the given executor.
     */
    static LeaseKeeper tickedByHand(TimeSource time, Executor extensions) {
        return new LeaseKeeper(time, extensions, false, null);
    }

    private static ThreadPoolExecutor extensionThreads() {
        AtomicInteger created = new AtomicInteger();
        return new ThreadPoolExecutor(0, EXTENSION_THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                runnable -> {
                    Thread thread = new Thread(runnable, "resilience-idempotency-lease-" + created.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /**
     * The keeper shared by executors on the system time.
     *
     * @return the shared keeper
     */
    public static LeaseKeeper shared() {
        return SHARED;
    }

    /**
     * Keeps a lease alive until the returned handle is closed.
     *
     * @param store the store
     * @param key the stored key
     * @param owner the owner token
     * @param leaseMillis the lease
     * @param keepForMillis how long from now the lease may be extended at most (the keep limit,
     *     or what a settlement has left), or {@link Long#MAX_VALUE} for as long as it is kept
     * @return the handle; close it when the work ends
     */
    public Lease keep(IdempotencyStore store, String key, String owner, long leaseMillis, long keepForMillis) {
        if (leaseMillis < MIN_LEASE_MILLIS) {
            // too short to be kept at the keeper's pace: lengthened to the minimum now, then kept at that
            return keepExtendingNow(store, key, owner, leaseMillis, keepForMillis);
        }
        return register(store, key, owner, leaseMillis, keepForMillis);
    }

    /**
     * Keeps a lease whose first extension is sent now, not a third of a lease from now, however
     * short: for a claim whose settlement is retried after a lease too short to have been kept,
     * of which little may be left.
     *
     * @param store the store
     * @param key the stored key
     * @param owner the owner token
     * @param leaseMillis the lease each extension gives
     * @param keepForMillis how long from now the lease may be extended at most
     * @return the handle; close it when the work ends
     */
    public Lease keepExtendingNow(IdempotencyStore store, String key, String owner, long leaseMillis,
            long keepForMillis) {
        Lease kept = register(store, key, owner, Math.max(MIN_LEASE_MILLIS, leaseMillis), keepForMillis);
        send(store, List.of(kept));
        return kept;
    }

    private Lease register(IdempotencyStore store, String key, String owner, long leaseMillis, long keepForMillis) {
        long now = time.nanoTime();
        Lease lease = new Lease(this, new Claim(store, key, owner), leaseMillis, now, keepUntil(now, keepForMillis));
        running.add(lease);
        startIfNeeded();
        return lease;
    }

    private void startIfNeeded() {
        if (!ticksItself || started) {
            return;
        }
        synchronized (this) {
            if (started) {
                return;
            }
            Scheduler scheduler = ticks;
            if (scheduler != null) {
                scheduler.schedule(this::tickAndAgain, TICK_MILLIS);
            } else {
                ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
                    Thread thread = new Thread(runnable, "resilience-idempotency-lease");
                    thread.setDaemon(true);
                    return thread;
                });
                timer.scheduleWithFixedDelay(this::safeTick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
            }
            started = true;
        }
    }

    private void tickAndAgain() {
        safeTick();
        Objects.requireNonNull(ticks, "scheduled ticks have their scheduler").schedule(this::tickAndAgain, TICK_MILLIS);
    }

    /** A tick whose failure is logged: an exception escaping a fixed-delay task would end every later tick. */
    private void safeTick() {
        try {
            tick();
        } catch (RuntimeException | Error ex) {
            log.error("A lease keeping tick failed; the next tick goes on", ex);
        }
    }

    /** Extends the leases that are due: every {@link #TICK_MILLIS} on the keeper's timer. */
    void tick() {
        long now = time.nanoTime();
        Map<IdempotencyStore, List<Lease>> due = new IdentityHashMap<>();
        for (Lease lease : running) {
            if (lease.extending || now - lease.lastExtended < TimeUnit.MILLISECONDS.toNanos(lease.leaseMillis / 3)
                    || (lease.failures > 0 && now - lease.retryAt < 0)) {
                continue;
            }
            if (lease.leftMillis(now) <= 0) {
                outlived(lease);
                continue;
            }
            Claim claim = Objects.requireNonNull(lease.claim, "only a kept lease is extended, and it has its claim");
            List<Lease> batch = due.computeIfAbsent(claim.store(), store -> new ArrayList<>());
            batch.add(lease);
            if (batch.size() >= claim.store().leaseBatchSize()) {
                send(claim.store(), batch);
                due.remove(claim.store());
            }
        }
        due.forEach(this::send);
    }

    private void send(IdempotencyStore store, List<Lease> batch) {
        for (Lease lease : batch) {
            lease.extending = true;
        }
        try {
            extensions.execute(() -> extend(store, batch));
        } catch (RejectedExecutionException saturated) {
            // every extension thread waits on a stalled store: these leases are tried at the next tick
            for (Lease lease : batch) {
                lease.extending = false;
            }
        }
    }

    private void extend(IdempotencyStore store, List<Lease> batch) {
        // whatever context a pool thread inherited (the TTL agent), an extension serves no request
        try (TraceScope none = TraceContextHolder.open(TraceContext.empty())) {
            // sized when sent, not when the tick queued it: a late extension reaches no further
            long now = time.nanoTime();
            List<Lease> sent = new ArrayList<>(batch.size());
            List<LeaseExtension> requests = new ArrayList<>(batch.size());
            for (Lease lease : batch) {
                long leftMillis = lease.leftMillis(now);
                if (leftMillis <= 0) {
                    outlived(lease);
                    continue;
                }
                Claim claim = Objects.requireNonNull(lease.claim, "only a kept lease is extended, and it has its claim");
                // never past what may be kept: a key is held at most until its deadline plus the margin
                requests.add(new LeaseExtension(claim.key(), claim.owner(), Math.min(lease.leaseMillis, leftMillis)));
                sent.add(lease);
            }
            if (!sent.isEmpty()) {
                boolean[] extended;
                try {
                    extended = store.extendLeases(requests);
                } catch (RuntimeException ex) {
                    for (Lease lease : sent) {
                        lease.failed(now);
                    }
                    throw ex;
                }
                for (int i = 0; i < sent.size(); i++) {
                    if (extended[i]) {
                        sent.get(i).lastExtended = now;
                        sent.get(i).failures = 0;
                    } else {
                        running.remove(sent.get(i));
                    }
                }
            }
        } catch (RuntimeException ex) {
            log.debug("Lease extension failed; trying again after a back-off", ex);
        } finally {
            for (Lease lease : batch) {
                lease.extending = false;
            }
        }
    }

    /** Past its deadline the work is hung or ignoring interrupts: its lease is left to run out. */
    private void outlived(Lease lease) {
        if (running.remove(lease)) {
            log.warn("Stopped extending the idempotency lease of {}: its work outlived its deadline",
                    lease.claim != null ? lease.claim.key() : null);
        }
    }

    /** The claim a lease holds: what an extension names. */
    private record Claim(IdempotencyStore store, String key, String owner) {
    }

    /** The end of a keep of {@code millis} from {@code now}, {@link Long#MAX_VALUE} meaning none. */
    private static long keepUntil(long now, long millis) {
        return millis == Long.MAX_VALUE ? Long.MAX_VALUE : now + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** One kept lease. */
    public static final class Lease implements AutoCloseable {

        /** A lease nobody keeps: for a claim settled before its work ran. */
        public static final Lease NONE = new Lease(null, null, 0, 0, 0);

        private final @Nullable LeaseKeeper keeper;

        private final @Nullable Claim claim;

        private final long leaseMillis;

        private volatile long keepUntil;

        private volatile long lastExtended;

        /** An extension of this lease is in flight. */
        private volatile boolean extending;

        /** Extensions that failed in a row (the store did not answer); 0 after one that went through. */
        private volatile int failures;

        /** After failures, when the next extension may be sent. */
        private volatile long retryAt;

        private Lease(@Nullable LeaseKeeper keeper, @Nullable Claim claim, long leaseMillis, long started,
                long keepUntil) {
            this.keepUntil = keepUntil;
            this.keeper = keeper;
            this.claim = claim;
            this.leaseMillis = leaseMillis;
            this.lastExtended = started;
        }

        /**
         * An extension failed at {@code now}: the next waits a back-off that doubles from a tick,
         * capped at a sixth of the lease, so a store that keeps failing is not sent every
         * extension at every tick, while several tries still come before the lease runs out.
         */
        void failed(long now) {
            int failed = failures + 1;
            failures = failed;
            long backOff = Math.min(TICK_MILLIS << Math.min(failed - 1, 5), Math.max(TICK_MILLIS, leaseMillis / 6));
            retryAt = now + TimeUnit.MILLISECONDS.toNanos(backOff);
        }

        /**
         * Whether this lease is kept at all (a lease too short to be worth extending is not).
         *
         * @return {@code false} for a lease nobody extends
         */
        public boolean isKept() {
            return keeper != null;
        }

        /** Milliseconds from {@code now} the lease may still be extended; at most 0 once past the bound. */
        long leftMillis(long now) {
            long until = keepUntil;
            return until == Long.MAX_VALUE ? Long.MAX_VALUE : TimeUnit.NANOSECONDS.toMillis(until - now);
        }

        /**
         * Keeps the lease for {@code millis} from now, whatever the deadline allowed so far: the
         * claim's settlement is being retried, and a lapsed lease would let a duplicate execute.
         *
         * @param millis how long from now the lease may still be extended, or {@link Long#MAX_VALUE}
         *     for as long as it is kept
         * @return this lease
         */
        public Lease keepFor(long millis) {
            if (keeper != null) {
                keepUntil = keepUntil(keeper.time.nanoTime(), millis);
                keeper.running.add(this);
            }
            return this;
        }

        @Override
        public void close() {
            if (keeper != null) {
                keeper.running.remove(this);
            }
        }
    }
}
