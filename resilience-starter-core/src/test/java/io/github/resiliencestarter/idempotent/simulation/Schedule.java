package io.github.resiliencestarter.idempotent.simulation;

import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One schedule, generated from a seed: the settings, the nodes, the duplicates of a few keys sent
 * to random nodes at random times (blocking or asynchronous, with or without a budget), and the
 * faults. Everything the run does not draw while it runs is drawn here.
 */
final class Schedule {

    /** What the simulation may throw at the engine; a test may leave a kind out. */
    enum Fault {
        /** A node cut off from the store. */
        CUT,
        /** The store frozen: commands applied late, after their callers timed out. */
        FREEZE,
        /** A lossy network: messages lost, or delayed past the command timeout, at random. */
        LOSS,
        /** A node paused (stop the world). */
        PAUSE,
        /** A node crashed, then restarted. */
        CRASH,
        /** {@code @Timeout} cancelling an asynchronous call's future at its deadline while its work goes on. */
        CANCEL,
        /**
         * A Sentinel failover of a replicated store (only with {@link #replicated}): the old master
         * takes writes until demoted, the other replica follows it until reconfigured.
         */
        FAILOVER,
        /**
         * Retried work, in the shapes of issue 45's items 3 and 4: a blocking call reserves two
         * order lines through a retried client whose downstream keys derive from each call's place
         * (replies lost at random, so calls are retried), then commits the order inside a retry
         * nested in the method's own retry, with the commit marker as the JDBC store sets it, and a
         * read after the commit that may time out.
         */
        RETRIES
    }

    /** One request: a duplicate of {@code key} as {@code scope} sent to {@code node}. */
    record Request(int id, String key, String scope, int node, long at, boolean async, long budgetMillis,
            long workMillis) {
    }

    final long seed;

    final int nodes;

    final IdempotencyConfig config;

    final long commandTimeoutMillis;

    final List<Request> requests = new ArrayList<>();

    final FaultPlan faults = new FaultPlan();

    /** Whether an asynchronous call's future is cancelled at its deadline. */
    final boolean cancels;

    /** Whether a blocking call's work is {@link Fault#RETRIES retried work} (asked for, and an even seed). */
    final boolean retries;

    /**
     * Whether the store's client reads before every claim (every other pair of seeds), whatever the
     * operation's recent claims found: the path the Redis store takes while duplicates dominate,
     * which the adaptive choice alone reaches in few schedules. Either order must keep every
     * invariant, since the claim alone decides who owns a key.
     */
    final boolean readsFirst;

    /** A master with two replicas under Sentinel instead of one master, and how the client acknowledges. */
    final boolean replicated;

    final ReplicaAckPolicy acks;

    /** Failovers: at {@code from}; the old master demoted {@code to - from} later. */
    final List<FaultPlan.Window> failovers = new ArrayList<>();

    /** For each failover, how long after it the other replica is reconfigured, milliseconds. */
    final List<Long> reconfigureAfter = new ArrayList<>();

    /** When the faults are over and the probes go out: each key is asked once more on a healthy node. */
    final long probeAt;

    final long horizon;

    Schedule(long seed, java.util.Set<Fault> kinds) {
        this(seed, kinds, null);
    }

    /**
     * A schedule on a replicated store when {@code acks} is given: a master and two replicas, one to
     * three failovers among the faults.
     */
    Schedule(long seed, java.util.Set<Fault> kinds, ReplicaAckPolicy acks) {
        this.seed = seed;
        this.replicated = acks != null;
        this.acks = acks != null ? acks : ReplicaAckPolicy.NONE;
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        nodes = 2 + random.nextInt(2);
        long lease = 600 + random.nextInt(2_400);
        long margin = random.nextInt(500);
        if (replicated) {
            // leases as deployed (the 2 s default margin and more): a failover's window of a second or
            // so outlasting a lease is the store being away, not what the acknowledgement is tested on
            lease += 4_000;
            margin += 2_000;
        }
        config = IdempotencyConfig.custom().ttl(Duration.ofMinutes(10)).lease(Duration.ofMillis(lease))
                .leaseMargin(Duration.ofMillis(margin)).waitTimeout(Duration.ofMillis(200
                        + random.nextInt(1_800))).settleLimit(Duration.ofMillis(2_000 + random.nextInt(8_000)))
                .keepLimit(Duration.ofMillis(5_000 + random.nextInt(15_000)))
                .onInProgress(random.nextInt(4) == 0 ? InProgressStrategy.REJECT : InProgressStrategy.WAIT).build();
        commandTimeoutMillis = 100 + random.nextInt(900);
        int keys = 1 + random.nextInt(3);
        int id = 0;
        long lastRequest = 0;
        for (int k = 0; k < keys; k++) {
            List<String> scopes = random.nextInt(3) == 0 ? List.of("alice", "bob") : List.of("alice");
            for (String scope : scopes) {
                int duplicates = 2 + random.nextInt(4);
                for (int d = 0; d < duplicates; d++) {
                    long at = random.nextInt(6_000);
                    boolean async = random.nextBoolean();
                    long budget = random.nextInt(10) < 3 ? 0 : 200 + random.nextInt(2_800);
                    long work = random.nextInt(10) == 0 ? 1_000 + random.nextInt(3_000) : 5 + random.nextInt(400);
                    if (budget > 0 && (!async || !kinds.contains(Fault.CANCEL))) {
                        // @Timeout would interrupt a blocking call's work that outlives the budget, and cancel an
                        // asynchronous call's future (CANCEL): without that, the work ends within its budget
                        work = Math.min(work, Math.max(1, budget / 2));
                    }
                    requests.add(new Request(id++, "k" + k, scope, random.nextInt(nodes), ms(at), async, budget, work));
                    lastRequest = Math.max(lastRequest, at);
                }
            }
        }
        List<Fault> allowed = new ArrayList<>(kinds);
        allowed.remove(Fault.CANCEL);
        allowed.remove(Fault.FAILOVER);
        allowed.remove(Fault.RETRIES);
        cancels = kinds.contains(Fault.CANCEL);
        // every other seed, so a run of all kinds covers both shapes of work
        retries = kinds.contains(Fault.RETRIES) && (seed & 1) == 0;
        // from the seed's bits, not the random source: the rest of the schedule stays what it was
        readsFirst = (seed & 2) != 0;
        int faultCount = allowed.isEmpty() ? 0 : random.nextInt(4);
        long lastFault = 0;
        for (int f = 0; f < faultCount; f++) {
            Fault kind = allowed.get(random.nextInt(allowed.size()));
            long from = random.nextInt(8_000);
            long length = 200 + random.nextInt(kind == Fault.LOSS ? 5_000 : 6_000);
            int node = random.nextInt(nodes);
            FaultPlan.Window window = new FaultPlan.Window(kind == Fault.CUT && random.nextInt(3) == 0 ? -1 : node,
                    ms(from), ms(from + length), kind == Fault.LOSS ? 0.05 + random.nextDouble() * 0.45 : 1);
            switch (kind) {
                case CUT -> faults.cuts.add(window);
                case FREEZE -> faults.freezes.add(window);
                case LOSS -> faults.losses.add(window);
                case PAUSE -> faults.pauses.add(window);
                case CRASH -> faults.crashes.add(window);
            }
            lastFault = Math.max(lastFault, from + length);
        }
        if (replicated && kinds.contains(Fault.FAILOVER)) {
            int count = 1 + random.nextInt(3);
            // Sentinel's failover timeout keeps failovers of one master apart: 2.5 s here at least
            long from = 0;
            for (int f = 0; f < count; f++) {
                from += 2_500 + random.nextInt(3_000);
                long demoted = random.nextInt(1_500);
                failovers.add(new FaultPlan.Window(-1, ms(from), ms(from + demoted), 1));
                reconfigureAfter.add((long) random.nextInt(2_000));
                lastFault = Math.max(lastFault, from + 2_000);
            }
        }
        probeAt = ms(Math.max(lastRequest, lastFault) + config.settleLimit().toMillis() + lease + 5_000);
        horizon = probeAt + ms(30_000);
    }

    /**
     * A draw of retried work that depends on the seed, the request and the step only, so it is the
     * same whichever order the simulated threads take their turns in.
     *
     * @param request the request's id
     * @param step the how-manieth draw of that request's work
     * @return a number in [0, 1)
     */
    double draw(int request, int step) {
        return new SplittableRandom(seed * 1_000_003L + request * 7_919L + step).nextDouble();
    }

    static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Override
    public String toString() {
        return "seed=" + seed + " nodes=" + nodes + " lease=" + config.lease().toMillis() + "ms margin="
                + config.leaseMargin().toMillis() + "ms wait=" + config.waitTimeout().toMillis() + "ms settle="
                + config.settleLimit().toMillis() + "ms keep=" + config.keepLimit().toMillis() + "ms "
                + config.onInProgress() + " commandTimeout=" + commandTimeoutMillis + "ms"
                + (retries ? " retried work" : "") + (readsFirst ? " reads first" : "") + (replicated ? " replicated, " + acks + ", failovers=" + failovers + " reconfigured after "
                        + reconfigureAfter : "") + "\n  requests=" + requests + "\n  faults: " + faults;
    }
}
