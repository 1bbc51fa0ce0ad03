package io.github.resiliencestarter.timeout.support;

import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.TimeUnit;

/**
 * A work queue of no capacity: a task is accepted only when an idle worker is already waiting for
 * it, so a {@code ThreadPoolExecutor} starts another thread or rejects, as it does with a
 * {@code SynchronousQueue}.
 *
 * <p>Why not a {@code SynchronousQueue}: on Java 17 its waiting side spins before it parks, and on
 * a machine of two cores the spinning worker takes the CPU the caller needs to hand over and to
 * wake up (about 4 µs per OFFLOAD call in {@code OffloadDefaultsBenchmark}). A
 * {@link LinkedTransferQueue}'s waiters yield once and park.
 *
 * <p>{@link #put} is not supported: waiting without bound for a worker is what the executor's
 * rejection is there to avoid, so a rejection handler that blocks the caller through
 * {@code getQueue().put(task)} gets an {@link UnsupportedOperationException}. A timed
 * {@link #offer(Runnable, long, TimeUnit)} that is interrupted returns {@code false} with the
 * interrupt flag set, as its inherited signature admits no {@code InterruptedException}.
 */
public final class DirectHandoffQueue extends LinkedTransferQueue<Runnable> {

    private static final long serialVersionUID = 1L;

    @Override
    public boolean offer(Runnable task) {
        return tryTransfer(task);
    }

    @Override
    public boolean offer(Runnable task, long timeout, TimeUnit unit) {
        try {
            return tryTransfer(task, timeout, unit);
        } catch (InterruptedException ex) {
            // the signature admits no interrupt: keep the flag for the caller, and the task untaken
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean add(Runnable task) {
        if (!offer(task)) {
            throw new IllegalStateException("No worker is waiting for a task");
        }
        return true;
    }

    @Override
    public void put(Runnable task) {
        // waiting without bound for a worker is what the executor's rejection is there to avoid
        throw new UnsupportedOperationException("A direct hand-off takes a task only when a worker waits: use offer");
    }

    @Override
    public int remainingCapacity() {
        return 0;
    }
}
