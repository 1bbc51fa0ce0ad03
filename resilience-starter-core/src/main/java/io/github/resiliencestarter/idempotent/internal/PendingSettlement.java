package io.github.resiliencestarter.idempotent.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A settlement whose first attempt failed and that is tried again in the background. While it
 * exists, its node still holds the key: a claim of that key on the node makes no takeover (the
 * key's result is on its way) but answers "in progress" and tries this settlement at once. One try
 * at a time, whether it comes at its turn or is hurried by a waiting duplicate.
 */
final class PendingSettlement {

    private final Settlement.Command command;

    private final LeaseKeeper.Lease lease;

    private final long giveUpAt;

    private final AtomicBoolean trying = new AtomicBoolean();

    private final AtomicInteger tries = new AtomicInteger(1);

    private volatile boolean done;

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

    /** The time, on the settlement's clock, after which no further try is made. */
    long giveUpAt() {
        return giveUpAt;
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
