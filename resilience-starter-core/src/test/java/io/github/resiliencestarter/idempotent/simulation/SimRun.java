package io.github.resiliencestarter.idempotent.simulation;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.Scheduler;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.IdempotentResult;
import io.github.resiliencestarter.idempotent.jdbc.IdempotentAttemptCommittedException;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one {@link Schedule}: the real {@link IdempotentExecutor} on every node (its claim drivers,
 * settlement and lease keeper, on simulated threads and time), one simulated store, the schedule's
 * requests and faults, and after the faults one probe per key on a healthy node.
 */
final class SimRun {

    /** The store's and the nodes' wall clock starts here (no skew between them in this model). */
    private static final long EPOCH_MILLIS = 1_800_000_000_000L;

    private static final ArrayDeque<SimKernel.SimThread> IDLE = new ArrayDeque<>();

    private final Schedule schedule;

    private final SimKernel kernel;

    private final History history;

    private final SimStore store;

    /** The replicated topology, when the schedule asks for one. */
    private final @org.jspecify.annotations.Nullable SimRedis redis;

    private final TimeSource time;

    private final Node[] nodes;

    private final List<SimKernel.Life> lives = new ArrayList<>();

    private static final int PROBE_TRIES = 8;

    private static final java.util.Set<String> TRANSIENT = java.util.Set.of("IdempotencyStoreException",
            "IdempotencyInProgressException");

    private int effects;

    /** The downstream of retried work: each key it was sent under, and the order line it reserved for it. */
    private final Map<String, Integer> downstream = new java.util.HashMap<>();

    private final int[] probeRetries;

    /** Per life, the calls not yet answered, each with how to answer it when its node dies. */
    private final Map<SimKernel.Life, Map<Integer, Runnable>> inFlight = new java.util.HashMap<>();

    private SimRun(Schedule schedule, boolean keepTrace) {
        this.schedule = schedule;
        this.kernel = new SimKernel(schedule.seed, IDLE);
        this.history = new History(keepTrace);
        this.time = new TimeSource() {
            @Override
            public long nanoTime() {
                return kernel.nowNanos();
            }

            @Override
            public long epochMillis() {
                return EPOCH_MILLIS + kernel.nowMillis();
            }
        };
        this.store = new SimStore(time::epochMillis);
        this.redis = schedule.replicated ? new SimRedis(kernel, time::epochMillis) : null;
        this.probeRetries = new int[schedule.requests.size() * 2 + 8];
        this.nodes = new Node[schedule.nodes];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = new Node(i);
        }
    }

    /** Runs the schedule and answers what happened. */
    static synchronized History run(Schedule schedule, boolean keepTrace) {
        return new SimRun(schedule, keepTrace).run();
    }

    private History run() {
        for (FaultPlan.Window pause : schedule.faults.pauses) {
            kernel.at(pause.from(), null, () -> {
                SimKernel.Life life = nodes[pause.node()].life;
                life.pausedUntil = Math.max(life.pausedUntil, pause.to());
            });
        }
        for (FaultPlan.Window crash : schedule.faults.crashes) {
            kernel.at(crash.from(), null, () -> crash(nodes[crash.node()].life));
            kernel.at(crash.to(), null, () -> nodes[crash.node()].restart());
        }
        for (int f = 0; f < schedule.failovers.size(); f++) {
            FaultPlan.Window failover = schedule.failovers.get(f);
            long reconfigured = schedule.reconfigureAfter.get(f);
            SimRedis topology = java.util.Objects.requireNonNull(redis, "failovers need the replicated store");
            kernel.at(failover.from(), null, () -> topology.failover((failover.to() - failover.from()) / 1_000_000,
                    reconfigured));
        }
        for (Schedule.Request request : schedule.requests) {
            kernel.at(request.at(), null, () -> send(request, false));
        }
        kernel.at(schedule.probeAt, null, this::probe);
        try {
            kernel.runUntil(schedule.horizon);
        } finally {
            kernel.shutdown(lives);
        }
        return history;
    }

    /** A node dies: its threads unwind, and every call it had not answered is answered with a reset connection. */
    private void crash(SimKernel.Life life) {
        kernel.kill(life);
        for (Runnable reset : new ArrayList<>(inFlight.getOrDefault(life, Map.of()).values())) {
            reset.run();
        }
    }

    /** One more request for every key, on the first live node, once every fault is over. */
    private void probe() {
        Map<String, Schedule.Request> keys = new TreeMap<>();
        for (Schedule.Request request : schedule.requests) {
            keys.putIfAbsent(request.key() + "/" + request.scope(), request);
        }
        int id = schedule.requests.size();
        for (Schedule.Request first : keys.values()) {
            int node = 0;
            while (!nodes[node].life.alive) {
                node++;
            }
            send(new Schedule.Request(id++, first.key(), first.scope(), node, kernel.nowNanos(), false, 0, 10), true);
        }
    }

    private void send(Schedule.Request request, boolean probe) {
        Node node = nodes[request.node()];
        SimKernel.Life life = node.life;
        IdempotentCall call = IdempotentCall.builder("Orders.create", schedule.config).key(request.key())
                .scope(request.scope()).fingerprintOf(request.key() + "/" + request.scope())
                .returnType(String.class).build();
        long sent = kernel.nowNanos();
        if (!life.alive) {
            history.answer(new History.Answer(request.id(), call.storedKey(), life, sent, sent, null, false,
                    "connection refused", probe));
            return;
        }
        inFlight.computeIfAbsent(life, l -> new TreeMap<>()).put(request.id(),
                () -> answered(request, call, life, sent, null, false, "connection reset", probe));
        kernel.task(sent, life, () -> {
            AtomicBoolean replayed = new AtomicBoolean();
            Deadline deadline = request.budgetMillis() > 0
                    ? Deadline.afterNanos(Schedule.ms(request.budgetMillis()), time) : null;
            try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withDeadline(deadline))) {
                if (request.async()) {
                    sendAsync(request, node, life, call, deadline, replayed, sent, probe);
                    return;
                }
                try {
                    IdempotentResult<String> result = node.executor.execute(call, () -> {
                        long started = kernel.nowNanos();
                        String owner = owner();
                        kernel.sleep(request.workMillis());
                        return schedule.retries ? retriedWork(request, call, life, owner, started)
                                : effect(call.storedKey(), life, owner, started);
                    }, () -> replayed.set(true));
                    answered(request, call, life, sent, result.value(), replayed.get(), null, probe);
                } catch (Throwable failure) {
                    answered(request, call, life, sent, null, replayed.get(), failure.getClass().getSimpleName(), probe);
                }
            }
        });
    }

    private void sendAsync(Schedule.Request request, Node node, SimKernel.Life life, IdempotentCall call,
            Deadline deadline, AtomicBoolean replayed, long sent, boolean probe) {
        CompletableFuture<IdempotentResult<String>> result = node.executor.executeAsync(call, () -> {
            // like supplyAsync on the application's own executor: cancelling the future does not stop it
            CompletableFuture<String> work = new CompletableFuture<>();
            long started = kernel.nowNanos();
            String owner = owner();
            kernel.task(started + Schedule.ms(request.workMillis()), life,
                    () -> work.complete(effect(call.storedKey(), life, owner, started)));
            return work;
        }, () -> replayed.set(true));
        if (deadline != null && schedule.cancels) {
            // @Timeout on a CompletableFuture: at the deadline the caller's future is cancelled
            kernel.task(sent + Schedule.ms(request.budgetMillis()), life, () -> result.cancel(true));
        }
        result.whenComplete((value, failure) -> {
            if (failure == null) {
                answered(request, call, life, sent, value.value(), replayed.get(), null, probe);
            } else {
                Throwable cause = Causes.unwrapAsync(failure);
                answered(request, call, life, sent, null, replayed.get(), cause instanceof SimKernel.NodeGone
                        ? "connection reset" : cause.getClass().getSimpleName(), probe);
            }
        });
    }

    /**
     * {@link Schedule.Fault#RETRIES Retried work}: two order lines reserved through a retried
     * client, each under the key derived from its call's place (a downstream that has seen a key
     * answers what it did for it); then the order committed in a retry nested in the method's own,
     * the commit being the run's effect and marked as the JDBC store marks it, and a read after it
     * that may time out. A second attempt's commit is refused as the JDBC store's guard refuses it.
     */
    private String retriedWork(Schedule.Request request, IdempotentCall call, SimKernel.Life life, String owner,
            long started) throws Throwable {
        IdempotentExecution execution = java.util.Objects.requireNonNull(
                TraceContextHolder.current().idempotentExecution(), "the work runs in its idempotent execution");
        int[] step = {0};
        // the probes after every fault are a client's last word: their calls do not fail at random
        double lost = request.id() < schedule.requests.size() ? 0.3 : 0;
        Retrier inventory = retrier("Inventory.reserve", 3);
        for (int line = 1; line <= 2; line++) {
            int wanted = line;
            inventory.call(() -> {
                String key = call.storedKey() + "#" + execution.nextOutboundPlace(TraceContextHolder.current());
                Integer reserved = downstream.putIfAbsent(key, wanted);
                if (reserved != null && reserved != wanted) {
                    history.violations.add("each downstream call under its own key: line " + wanted + " of "
                            + call.storedKey() + " was sent under the key of line " + reserved + " (" + key + ")");
                }
                if (schedule.draw(request.id(), step[0]++) < lost) {
                    throw new RetryableException("READ_TIMED_OUT", "the reservation's reply was lost");
                }
                return null;
            });
        }
        return retrier("Orders.create", 2).call(() -> retrier("Orders.save", 3).call(() -> {
            TraceContext current = TraceContextHolder.current();
            if (execution.isRepeatedAttempt(current)) {
                throw new IdempotentAttemptCommittedException(execution.committedAttempt(), current.attempt());
            }
            String value = effect(call.storedKey(), life, owner, started);
            execution.recordCommit(current);
            if (schedule.draw(request.id(), step[0]++) < lost) {
                throw new RetryableException("READ_TIMED_OUT", "the read after the commit timed out");
            }
            return value;
        }));
    }

    /** A retrier on simulated time, with no jitter: its waits are the kernel's. */
    private Retrier retrier(String name, int attempts) {
        return Retrier.builder(name, RetryConfig.custom().backOff(new FixedBackOff(Duration.ofMillis(20)))
                .jitter(Jitters.none()).maxAttempts(attempts).build()).timeSource(time)
                .sleeper(nanos -> kernel.sleep(TimeUnit.NANOSECONDS.toMillis(nanos))).build();
    }

    private String effect(String storedKey, SimKernel.Life life, String owner, long started) {
        if (!life.alive) {
            throw new SimKernel.NodeGone();
        }
        String value = "v:" + storedKey + ":" + (++effects);
        history.effect(new History.Effect(storedKey, life, owner, started, kernel.nowNanos(), value));
        return value;
    }

    /** The owner token of the execution the calling work runs in. */
    private static String owner() {
        return java.util.Objects.requireNonNull(TraceContextHolder.current().idempotentExecution(),
                "the work runs in its idempotent execution").ownerToken();
    }

    private void answered(Schedule.Request request, IdempotentCall call, SimKernel.Life life, long sent,
            String value, boolean replayed, String failure, boolean probe) {
        Map<Integer, Runnable> open = inFlight.get(life);
        if (open == null || open.remove(request.id()) == null) {
            // answered already: the node died before this answer could leave it
            return;
        }
        if (probe && failure != null && TRANSIENT.contains(failure) && ++probeRetries[request.id()] < PROBE_TRIES) {
            // a probe is a client: a command that stalled past its timeout, or a 409 for the lease of
            // a claim whose reply was lost, is tried again after a while
            kernel.at(kernel.nowNanos() + Schedule.ms(1_500), null, () -> send(request, true));
            return;
        }
        history.answer(new History.Answer(request.id(), call.storedKey(), life, sent, kernel.nowNanos(), value,
                replayed, failure, probe));
    }

    /** One application node: a life at a time, each with an executor of its own. */
    private final class Node {

        private final int index;

        private int incarnation;

        SimKernel.Life life;

        IdempotentExecutor executor;

        Node(int index) {
            this.index = index;
            restart();
        }

        void restart() {
            life = new SimKernel.Life(index, incarnation++);
            lives.add(life);
            SimKernel.Life mine = life;
            Scheduler scheduler = new Scheduler() {
                @Override
                public long nanoTime() {
                    return kernel.nowNanos();
                }

                @Override
                public void execute(Runnable task) {
                    kernel.task(kernel.nowNanos(), mine, task);
                }

                @Override
                public void schedule(Runnable task, long delayMillis) {
                    kernel.task(kernel.nowNanos() + TimeUnit.MILLISECONDS.toNanos(delayMillis), mine, task);
                }

                @Override
                public void sleep(long millis) {
                    kernel.sleep(millis);
                }
            };
            SimStoreClient client = new SimStoreClient(kernel, mine, store, redis, schedule.acks, schedule.faults,
                    schedule.commandTimeoutMillis, history, schedule.readsFirst);
            executor = IdempotentExecutor.builder(client, new Fastjson2ResponseCodec()).timeSource(time)
                    .scheduler(scheduler).build();
        }
    }
}
