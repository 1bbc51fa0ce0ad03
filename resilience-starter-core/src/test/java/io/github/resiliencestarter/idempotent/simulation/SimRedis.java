package io.github.resiliencestarter.idempotent.simulation;

import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A simulated Redis master with two replicas under Sentinel: writes replicate asynchronously, each
 * replica acknowledges what it applied, {@code WAIT} counts the replicas that acknowledged a
 * connection's last write. A failover promotes the replica with the highest offset, while the old
 * master keeps taking the writes of connections still open to it until it is demoted, and the
 * other replica keeps following (and acknowledging) the old master until it is reconfigured; both
 * then resynchronise from the new master, dropping what it never had. Connections to a demoted
 * master break; what they had not been answered is re-sent to the new master, as Lettuce does,
 * or fails, as the acknowledgement policy under test chooses.
 */
final class SimRedis {

    /** A client's connection to one node; {@code woff} is the offset of its last write there. */
    static final class Connection {

        int node;

        long woff;

        /** Changes when the connection breaks: replies of an older epoch are lost. */
        int epoch;
    }

    private record Waiter(int node, long woff, int replicas, long until, Consumer<Integer> answer) {
    }

    /** A script sent to a node that no longer takes writes: Redis answers READONLY. */
    static final class ReadOnly extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ReadOnly() {
            super("READONLY", null, false, false);
        }
    }

    static final int NODES = 3;

    private final SimKernel kernel;

    final SimStore[] nodes = new SimStore[NODES];

    /** Whom each node follows; -1 for a node that takes writes. */
    private final int[] follows = {-1, 0, 0};

    private final long[] offset = new long[NODES];

    /** {@code acked[m][r]}: the offset replica {@code r} acknowledged to master {@code m}. */
    private final long[][] acked = new long[NODES][NODES];

    private final long[] lastDelivery = new long[NODES];

    private final List<Waiter> waiters = new ArrayList<>();

    private final List<Consumer<Integer>> onDemotion = new ArrayList<>();

    /** The master Sentinel names: where a connection goes when it (re)connects. */
    private int master;

    SimRedis(SimKernel kernel, LongSupplier clock) {
        this.kernel = kernel;
        for (int i = 0; i < NODES; i++) {
            nodes[i] = new SimStore(clock);
        }
    }

    int master() {
        return master;
    }

    /** Tells {@code listener} the node that was demoted, when a failover ends a master's term. */
    void onDemotion(Consumer<Integer> listener) {
        onDemotion.add(listener);
    }

    /** The replicas {@code node} lists now, as {@code ROLE} on it answers: those following it. */
    int listedReplicas(int node) {
        int listed = 0;
        for (int replica = 0; replica < NODES; replica++) {
            if (follows[replica] == node) {
                listed++;
            }
        }
        return listed;
    }

    /** The replicas Sentinel knows of: every node but the master, down or following another. */
    int knownReplicas() {
        return NODES - 1;
    }

    /** Whether {@code node} takes writes now. */
    boolean takesWrites(int node) {
        return follows[node] < 0;
    }

    /**
     * Runs a script on the connection's node; a write is numbered and replicated.
     *
     * @return the script's answer
     */
    <T> T apply(Connection connection, String key, Function<SimStore, T> script) {
        int node = connection.node;
        if (!takesWrites(node)) {
            throw new ReadOnly();
        }
        SimStore store = nodes[node];
        IdempotencyRecord before = store.raw(key);
        T answer = script.apply(store);
        if (!Objects.equals(before, store.raw(key))) {
            long written = ++offset[node];
            connection.woff = written;
            replicate(node, written, key, store.raw(key));
        }
        return answer;
    }

    /** Answers how many replicas acknowledged the connection's last write, once enough have or at the timeout. */
    void await(Connection connection, int replicas, long timeoutMillis, Consumer<Integer> answer) {
        int now = acknowledged(connection.node, connection.woff);
        if (now >= replicas) {
            answer.accept(now);
            return;
        }
        Waiter waiter = new Waiter(connection.node, connection.woff, replicas,
                kernel.nowNanos() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis), answer);
        waiters.add(waiter);
        kernel.at(waiter.until(), null, () -> {
            if (waiters.remove(waiter)) {
                waiter.answer().accept(acknowledged(waiter.node(), waiter.woff()));
            }
        });
    }

    /** The number of replicas following {@code node} that acknowledged {@code woff}. */
    private int acknowledged(int node, long woff) {
        int count = 0;
        for (int replica = 0; replica < NODES; replica++) {
            if (follows[replica] == node && acked[node][replica] >= woff) {
                count++;
            }
        }
        return count;
    }

    private void replicate(int from, long written, String key, @Nullable IdempotencyRecord record) {
        for (int replica = 0; replica < NODES; replica++) {
            if (follows[replica] != from) {
                continue;
            }
            int target = replica;
            long at = Math.max(lastDelivery[target], kernel.nowNanos() + lag());
            lastDelivery[target] = at;
            kernel.at(at, null, () -> {
                if (follows[target] == from) {
                    nodes[target].restore(key, record);
                    offset[target] = written;
                    acked[from][target] = written;
                    wakeWaiters(from);
                }
            });
        }
    }

    private void wakeWaiters(int node) {
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext();) {
            Waiter waiter = it.next();
            if (waiter.node() == node) {
                int count = acknowledged(node, waiter.woff());
                if (count >= waiter.replicas()) {
                    it.remove();
                    waiter.answer().accept(count);
                }
            }
        }
    }

    /** Replication lag: most writes within a millisecond or two, now and then tens of milliseconds. */
    private long lag() {
        long micros = kernel.random.nextInt(10) == 0 ? 5_000 + kernel.random.nextInt(60_000)
                : 200 + kernel.random.nextInt(1_500);
        return TimeUnit.MICROSECONDS.toNanos(micros);
    }

    /**
     * A failover, as Sentinel makes one: the replica with the highest offset is promoted now; the old
     * master takes the writes of its open connections until {@code demoteAfter}, the other replica
     * follows it until {@code reconfigureAfter}.
     */
    void failover(long demoteAfterMillis, long reconfigureAfterMillis) {
        int old = master;
        int promoted = -1;
        for (int replica = 0; replica < NODES; replica++) {
            if (follows[replica] == old && (promoted < 0 || offset[replica] > offset[promoted])) {
                promoted = replica;
            }
        }
        if (promoted < 0) {
            return;
        }
        int chosen = promoted;
        follows[chosen] = -1;
        master = chosen;
        // Sentinel points the demoted master and the other replicas at whichever master is current then
        kernel.at(kernel.nowNanos() + TimeUnit.MILLISECONDS.toNanos(demoteAfterMillis), null, () -> {
            resync(old, master);
            for (Consumer<Integer> listener : onDemotion) {
                listener.accept(old);
            }
        });
        for (int replica = 0; replica < NODES; replica++) {
            if (replica != chosen && replica != old) {
                int other = replica;
                kernel.at(kernel.nowNanos() + TimeUnit.MILLISECONDS.toNanos(reconfigureAfterMillis), null,
                        () -> resync(other, master));
            }
        }
    }

    /** {@code node} becomes a replica of {@code newMaster}: a full resynchronisation. */
    private void resync(int node, int newMaster) {
        if (node == newMaster || follows[node] == newMaster) {
            return;
        }
        follows[node] = newMaster;
        nodes[node].copyFrom(nodes[newMaster]);
        offset[node] = offset[newMaster];
        acked[newMaster][node] = offset[newMaster];
        wakeWaiters(newMaster);
        // a demoted master's own waiters answer with what they have: nobody acknowledges them any more
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext();) {
            Waiter waiter = it.next();
            if (waiter.node() == node) {
                it.remove();
                waiter.answer().accept(acknowledged(node, waiter.woff()));
            }
        }
    }
}
