package io.github.resiliencestarter.idempotent.simulation;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    SimStoreClient(SimKernel kernel, SimKernel.Life life, SimStore store, FaultPlan faults, long commandTimeoutMillis,
            History history) {
        this.kernel = kernel;
        this.life = life;
        this.store = store;
        this.faults = faults;
        this.commandTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(commandTimeoutMillis);
        this.history = history;
    }

    private static final class Pending {

        @Nullable Object reply;

        boolean answered;
    }

    private <T> T roundTrip(String what, String key, Function<SimStore, T> operation) {
        SimKernel.SimThread self = SimKernel.SimThread.current();
        if (!self.life.alive) {
            throw new SimKernel.NodeGone();
        }
        Pending pending = new Pending();
        long sent = kernel.nowNanos();
        if (!lost(sent)) {
            kernel.at(sent + latency(), null, () -> arrive(what, key, operation, pending, self));
        }
        kernel.wake(sent + commandTimeoutNanos, self, pending);
        kernel.park(pending);
        if (!pending.answered) {
            throw new IdempotencyStoreException("simulated: no reply to " + what + " within the command timeout",
                    null);
        }
        @SuppressWarnings("unchecked")
        T reply = (T) pending.reply;
        return reply;
    }

    private <T> void arrive(String what, String key, Function<SimStore, T> operation, Pending pending,
            SimKernel.SimThread caller) {
        long thaw = faults.thawed(kernel.nowNanos());
        if (thaw > kernel.nowNanos()) {
            kernel.at(thaw, null, () -> arrive(what, key, operation, pending, caller));
            return;
        }
        T reply = operation.apply(store);
        history.storeOp(kernel.nowMillis(), life, what, key, reply);
        if (lost(kernel.nowNanos())) {
            return;
        }
        kernel.at(kernel.nowNanos() + latency(), life, () -> {
            if (lost(kernel.nowNanos())) {
                return;
            }
            pending.reply = reply;
            pending.answered = true;
            kernel.resume(caller, pending);
        });
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
        return roundTrip("claim", claim.key(), store -> store.claim(claim));
    }

    @Override
    public boolean complete(Completion completion) {
        history.settleTry(completion.ownerToken(), kernel.nowNanos());
        return roundTrip("complete:" + completion.response().type(), completion.key(),
                store -> store.complete(completion));
    }

    @Override
    public boolean release(String key, String ownerToken) {
        history.settleTry(ownerToken, kernel.nowNanos());
        return roundTrip("release", key, store -> store.release(key, ownerToken));
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        return roundTrip("extend", key, store -> store.extend(key, ownerToken, leaseMillis));
    }

    @Override
    public int leaseBatchSize() {
        return BATCH;
    }

    @Override
    public boolean[] extendLeases(List<LeaseExtension> leases) {
        return roundTrip("extend*" + leases.size(), "", store -> {
            boolean[] extended = new boolean[leases.size()];
            for (int i = 0; i < extended.length; i++) {
                LeaseExtension lease = leases.get(i);
                extended[i] = store.extend(lease.key(), lease.ownerToken(), lease.leaseMillis());
            }
            return extended;
        });
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
