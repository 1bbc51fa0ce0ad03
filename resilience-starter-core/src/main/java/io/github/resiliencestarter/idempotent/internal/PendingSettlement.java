package io.github.resiliencestarter.idempotent.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A settlement whose first attempt failed and that is tried again in the background. While it
 * exists, its node still holds the key: a claim of that key on the node makes no takeover (the
 * key's result is on its way) but answers "in progress" and tries this settlement at once. One try
 * at a time, whether it comes at its turn or is hurried by a waiting duplicate.
 */
final class PendingSettlement {

    private volatile Settlement.Command command;

    private final LeaseKeeper.Lease lease;

    /** The end of its tries, on the settlement's clock, unless {@link #forever}. */
    private final long giveUpAt;

    private volatile boolean forever;

    private final AtomicBoolean trying = new AtomicBoolean();

    private final AtomicInteger tries = new AtomicInteger(1);

    private volatile boolean done;

    /**
     * @param giveUpAt when tries of the command as it is stop (the settle limit)
     */
    PendingSettlement(Settlement.Command command, LeaseKeeper.Lease lease, long giveUpAt) {
        this.command = command;
        this.lease = lease;
        this.giveUpAt = giveUpAt;
    }

    Settlement.Command command() {
        return command;
    }

    LeaseKeeper.Lease lease() {
        return lease;
    }

    /**
     * How long its tries may go on from {@code now}, on the settlement's clock.
     *
     * @return milliseconds, at most 0 once its limit has come, {@link Long#MAX_VALUE} when tried until written
     */
    long millisLeft(long now) {
        return forever ? Long.MAX_VALUE : TimeUnit.NANOSECONDS.toMillis(giveUpAt - now);
    }

    /**
     * Past the settle limit, a completion is tried until it is written, as "executed, outcome
     * unknown" (a record duplicates are refused by) unless it already says so. Called by the one try
     * under way.
     *
     * @return {@code false} for a release, which gives up
     */
    boolean triedUntilWritten() {
        Settlement.Command now = command;
        if (now.completion() == null) {
            return false;
        }
        Settlement.Command unknown = now.outcomeUnknown();
        if (unknown != null) {
            command = unknown;
        }
        forever = true;
        return true;
    }

    /**
     * Starts a try, unless the settlement has ended or another try is under way.
     *
     * @return {@code true} when the caller may try, and must call {@link #end()} after
     */
    boolean begin() {
        return !done && trying.compareAndSet(false, true);
    }

    /**
     * Ends a try.
     *
     * @return the tries made so far
     */
    int end() {
        trying.set(false);
        return tries.incrementAndGet();
    }

    boolean isDone() {
        return done;
    }

    void markDone() {
        done = true;
    }
}
