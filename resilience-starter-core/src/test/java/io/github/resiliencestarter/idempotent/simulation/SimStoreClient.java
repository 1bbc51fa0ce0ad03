package io.github.resiliencestarter.idempotent.simulation;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import io.github.resiliencestarter.idempotent.support.DuplicateShare;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One node's connection to the simulated store: every operation is a round trip over a simulated
 * network. The request travels (and may be lost, or cut off, or wait for a frozen store), is
 * applied atomically, the reply travels back (and may be lost); a caller with no reply within the
 * command timeout gets an {@link IdempotencyStoreException}, whether or not its command was
 * applied, as a Redis client does.
 */
final class SimStoreClient implements IdempotencyStore {

    /** The pipeline depth: one batch of extensions is one round trip. */
    private static final int BATCH = 256;

    private final SimKernel kernel;

    private final SimKernel.Life life;

    private final SimStore store;

    private final FaultPlan faults;

    private final long commandTimeoutNanos;

    private final History history;

    /** The replicated topology, or {@code null} for a single master ({@link #store}). */
    private final @Nullable SimRedis redis;

    private final SimRedis.Connection connection = new SimRedis.Connection();

    private final ReplicaAckPolicy acks;

    /** Whether every claim reads first ({@link Schedule#readsFirst}); otherwise only as the store chooses. */
    private final boolean readsFirst;

    /** Per operation: whether its recent claims mostly found a record, so a claim reads first. */
    private final Map<String, DuplicateShare> duplicateShares = new HashMap<>();

    /** Commands sent on the current connection and not answered: re-sent or failed when it breaks. */
    private final List<Unanswered> unanswered = new ArrayList<>();

    SimStoreClient(SimKernel kernel, SimKernel.Life life, SimStore store, @Nullable SimRedis redis,
            ReplicaAckPolicy acks, FaultPlan faults, long commandTimeoutMillis, History history, boolean readsFirst) {
        this.kernel = kernel;
        this.readsFirst = readsFirst;
        this.life = life;
        this.store = store;
        this.redis = redis;
        this.acks = acks;
        this.faults = faults;
        this.commandTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(commandTimeoutMillis);
        this.history = history;
        if (redis != null) {
            connection.node = redis.master();
            redis.onDemotion(this::demoted);
        }
    }

    private static final class Pending {

        @Nullable Object reply;

        boolean answered;

        /** Failed by the connection breaking, as a client that does not re-send fails it. */
        boolean broken;
    }

    /** A command sent on the current connection and not answered yet. */
    private record Unanswered(Pending pending, SimKernel.SimThread caller, Runnable resend) {
    }

    /** What the server does with a command when it arrives: answers it now or later. */
    private interface ServerCall<T> {

        void serve(Consumer<T> reply);
    }

    /** The node this connection was open to was demoted: the connection breaks, and opens to the new master. */
    private void demoted(int node) {
        SimRedis topology = redis;
        if (topology == null || connection.node != node || !life.alive) {
            return;
        }
        connection.epoch++;
        List<Unanswered> pending = new ArrayList<>(unanswered);
        unanswered.clear();
        if (!acks.resend()) {
            // a client that does not re-send fails what the broken connection had not answered, at once,
            // and opens its next connection to the master Sentinel names
            connection.node = topology.master();
            connection.woff = 0;
            for (Unanswered command : pending) {
                command.pending().broken = true;
                kernel.resume(command.caller(), command.pending());
            }
            return;
        }
        long reconnected = kernel.nowNanos() + TimeUnit.MILLISECONDS.toNanos(50 + kernel.random.nextInt(450));
        kernel.at(reconnected, life, () -> {
            connection.node = topology.master();
            connection.woff = 0;
            pending.forEach(command -> command.resend().run());
        });
    }

    /** What a script sent to a demoted master is answered. */
    private static final Object READONLY = "READONLY";

    @SuppressWarnings("unchecked")
    private <T> T roundTrip(String what, String key, Function<SimStore, T> operation) {
        Object answer = roundTrip(what, key, commandTimeoutNanos, (Consumer<Object> reply) -> {
            try {
                reply.accept(redis != null ? redis.apply(connection, key, operation) : operation.apply(store));
            } catch (SimRedis.ReadOnly demoted) {
                reply.accept(READONLY);
            }
        });
        if (answer == READONLY) {
            throw new IdempotencyStoreException("simulated: READONLY, " + what + " reached a demoted master", null);
        }
        return (T) answer;
    }

    private <T> T roundTrip(String what, String key, long timeoutNanos, ServerCall<T> call) {
        SimKernel.SimThread self = SimKernel.SimThread.current();
        if (!self.life.alive) {
            throw new SimKernel.NodeGone();
        }
        Pending pending = new Pending();
        long sent = kernel.nowNanos();
        send(what, key, call, pending, self);
        kernel.wake(sent + timeoutNanos, self, pending);
        kernel.park(pending);
        if (pending.broken) {
            throw new IdempotencyStoreException("simulated: the connection broke before " + what + " was answered",
                    null);
        }
        if (!pending.answered) {
            throw new IdempotencyStoreException("simulated: no reply to " + what + " within the command timeout",
                    null);
        }
        @SuppressWarnings("unchecked")
        T reply = (T) pending.reply;
        return reply;
    }

    private <T> void send(String what, String key, ServerCall<T> call, Pending pending, SimKernel.SimThread caller) {
        int epoch = connection.epoch;
        Runnable resend = () -> send(what, key, call, pending, caller);
        Unanswered command = new Unanswered(pending, caller, resend);
        unanswered.add(command);
        if (!lost(kernel.nowNanos())) {
            kernel.at(kernel.nowNanos() + latency(), null, () -> arrive(what, key, call, pending, caller, epoch, command));
        }
    }

    private <T> void arrive(String what, String key, ServerCall<T> call, Pending pending,
            SimKernel.SimThread caller, int epoch, Unanswered command) {
        long thaw = faults.thawed(kernel.nowNanos());
        if (thaw > kernel.nowNanos()) {
            kernel.at(thaw, null, () -> arrive(what, key, call, pending, caller, epoch, command));
            return;
        }
        if (epoch != connection.epoch) {
            // the connection it was sent on broke before it arrived: never applied
            return;
        }
        call.serve(reply -> {
            history.storeOp(kernel.nowMillis(), life, what, key, reply);
            if (epoch != connection.epoch || lost(kernel.nowNanos())) {
                return;
            }
            kernel.at(kernel.nowNanos() + latency(), life, () -> {
                if (epoch != connection.epoch || lost(kernel.nowNanos())) {
                    return;
                }
                unanswered.remove(command);
                pending.reply = reply;
                pending.answered = true;
                kernel.resume(caller, pending);
            });
        });
    }

    /** {@code WAIT} for the policy's replicas after a write; fails the write as a store error when too few answered. */
    private void acknowledged(String what) {
        SimRedis topology = redis;
        if (topology == null || !acks.required()) {
            return;
        }
        int required = acks.requiredOf(topology.listedReplicas(connection.node), topology.knownReplicas());
        int replicas = roundTrip("wait", "", TimeUnit.MILLISECONDS.toNanos(acks.timeoutMillis() + 1_000),
                reply -> topology.await(connection, required, acks.timeoutMillis(), reply));
        if (replicas < required) {
            throw new IdempotencyStoreException("simulated: " + what + " acknowledged by " + replicas + " of "
                    + required + " replicas", null);
        }
    }

    private boolean lost(long at) {
        if (faults.cut(life.node, at)) {
            return true;
        }
        double loss = faults.lossAt(at);
        return loss > 0 && kernel.random.nextDouble() < loss;
    }

    /**
     * A fraction of a millisecond; on a lossy network, now and then a stall far longer than the
     * command timeout.
     */
    private long latency() {
        double draw = kernel.random.nextDouble();
        long micros = draw < 0.97 || faults.lossAt(kernel.nowNanos()) == 0 ? 100 + kernel.random.nextInt(1_500)
                : draw < 0.99 ? 20_000 + kernel.random.nextInt(200_000) : 300_000 + kernel.random.nextInt(1_500_000);
        return TimeUnit.MICROSECONDS.toNanos(micros);
    }

    @Override
    public ClaimResult claim(Claim claim) {
        // as the Redis store does: while most recent claims of the operation found a record, a plain read
        // first, on the same connection, and a completed record answered from it without the script
        DuplicateShare duplicates = duplicateShares.computeIfAbsent(claim.name(), name -> new DuplicateShare());
        if (readsFirst || duplicates.readFirst()) {
            IdempotencyRecord found = roundTrip("read", claim.key(), store -> store.find(claim.key()));
            if (found != null && found.status() == IdempotencyStatus.COMPLETED) {
                duplicates.record(true);
                history.answeredByRead();
                return ClaimResult.exists(found);
            }
        }
        ClaimResult result = claimByScript(claim);
        duplicates.record(result.existing() != null);
        return result;
    }

    private ClaimResult claimByScript(Claim claim) {
        ClaimResult result = roundTrip("claim", claim.key(), store -> {
            ClaimResult applied = store.claim(claim);
            if (applied.owned()) {
                history.claimed(claim.key(), claim.ownerToken(), kernel.nowNanos());
            }
            return applied;
        });
        if (result.owned()) {
            try {
                acknowledged("claim");
            } catch (IdempotencyStoreException unacknowledged) {
                // as the Redis store does: released and refused, so nothing runs on a claim a failover may lose
                try {
                    roundTrip("release", claim.key(), store -> store.release(claim.key(), claim.ownerToken()));
                } catch (IdempotencyStoreException ignored) {
                    // the claim's lease frees it
                }
                throw unacknowledged;
            }
        }
        return result;
    }

    @Override
    public boolean complete(Completion completion) {
        history.settleTry(completion.ownerToken(), kernel.nowNanos());
        boolean written = roundTrip("complete:" + completion.response().type(), completion.key(),
                store -> store.complete(completion));
        acknowledged("completion");
        return written;
    }

    @Override
    public boolean release(String key, String ownerToken) {
        history.settleTry(ownerToken, kernel.nowNanos());
        boolean released = roundTrip("release", key, store -> store.release(key, ownerToken));
        acknowledged("release");
        return released;
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        boolean extended = roundTrip("extend", key, store -> store.extend(key, ownerToken, leaseMillis));
        if (acks.extensions()) {
            acknowledged("extension");
        }
        return extended;
    }

    @Override
    public int leaseBatchSize() {
        return BATCH;
    }

    @Override
    public boolean[] extendLeases(List<LeaseExtension> leases) {
        boolean[] batch = roundTrip("extend*" + leases.size(), "", commandTimeoutNanos, reply -> {
            boolean[] extended = new boolean[leases.size()];
            // in the order of their keys: the keeper's batch comes in whatever order its set of leases has,
            // and each replicated write draws its replication lag, so a seed must not depend on it
            Integer[] byKey = new Integer[leases.size()];
            for (int i = 0; i < byKey.length; i++) {
                byKey[i] = i;
            }
            java.util.Arrays.sort(byKey, java.util.Comparator.comparing(i -> leases.get(i).key()));
            try {
                for (int i : byKey) {
                    LeaseExtension lease = leases.get(i);
                    Function<SimStore, Boolean> extend = store -> store.extend(lease.key(), lease.ownerToken(),
                            lease.leaseMillis());
                    extended[i] = redis != null ? redis.apply(connection, lease.key(), extend) : extend.apply(store);
                }
            } catch (SimRedis.ReadOnly demoted) {
                extended = null;
            }
            reply.accept(extended);
        });
        if (batch == null) {
            throw new IdempotencyStoreException("simulated: READONLY, extensions reached a demoted master", null);
        }
        if (acks.extensions()) {
            acknowledged("extension");
        }
        return batch;
    }

    @Override
    public @Nullable IdempotencyRecord find(String key) {
        return roundTrip("find", key, store -> store.find(key));
    }

    @Override
    public void ping() {
        roundTrip("ping", "", store -> Boolean.TRUE);
    }
}
