package io.github.resiliencestarter.timeout.support;

import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A work queue of no capacity: a task is accepted only when an idle worker is already waiting for
 * it, so a {@code ThreadPoolExecutor} starts another thread or rejects, as it does with a
 * {@code SynchronousQueue}.
 *
 * <p>The worker that waited <em>last</em> takes the task. A pool grown by a burst then shrinks
 * back: under a light load the same few workers keep taking the tasks, and those above the core
 * size stay idle until their keep-alive ends them. Handing each task to the worker that waited
 * longest (a {@code LinkedTransferQueue}, a fair {@code SynchronousQueue}) rotates the load over
 * every worker, so at about one task a second none of them is ever idle long enough to end.
 *
 * <p>A worker that comes back for a task first checks its slot for a while, then parks. A caller
 * that offloads call after call offers its next task within that window, so the worker takes it
 * without being parked and woken: parking at once cost about 4.5 µs per OFFLOAD call
 * (docs/internals/benchmarks.md, issue 47). The window is a time learnt from the recent waits
 * ({@link SpinWindow}, at most 50 µs), so it shrinks to nothing under a trickle; the spin yields
 * every few microseconds, so a thread ready on the same core is not held up. Unlike a (non-fair)
 * {@code SynchronousQueue} on Java 17, whose waiting side spins long enough to take the CPU a
 * caller on a machine of two cores needs to hand over and to wake up.
 *
 * <p>{@link #put} is not supported: waiting without bound for a worker is what the executor's
 * rejection is there to avoid, so a rejection handler that blocks the caller through
 * {@code getQueue().put(task)} gets an {@link UnsupportedOperationException}. A timed
 * {@link #offer(Runnable, long, TimeUnit)} that is interrupted returns {@code false} with the
 * interrupt flag set, as its inherited signature admits no {@code InterruptedException}.
 */
public final class DirectHandoffQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {

    /** How often a timed offer looks again for a worker that began to wait. */
    private static final long OFFER_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Idle workers, the one that waited last first. */
    private final ConcurrentLinkedDeque<Waiter> waiters = new ConcurrentLinkedDeque<>();

    /** How long a worker looks for a task before it parks. */
    private final SpinWindow spinWindow = new SpinWindow();

    /** One idle worker and the slot its task is handed over in; ready once the slot is filled. */
    private static final class Waiter implements BooleanSupplier {

        /** Put in the slot by a worker that stopped waiting before a task came. */
        static final Object GAVE_UP = new Object();

        final Thread thread = Thread.currentThread();

        final AtomicReference<@Nullable Object> slot = new AtomicReference<>();

        @Override
        public boolean getAsBoolean() {
            return slot.get() != null;
        }
    }

    @Override
    public boolean offer(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        for (Waiter waiter = waiters.pollFirst(); waiter != null; waiter = waiters.pollFirst()) {
            if (waiter.slot.compareAndSet(null, task)) {
                LockSupport.unpark(waiter.thread);
                return true;
            } // else it gave up waiting: the next one
        }
        return false;
    }

    @Override
    public boolean offer(Runnable task, long timeout, TimeUnit unit) {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!offer(task)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            // an executor never offers with a time: a plain re-check is enough here
            LockSupport.parkNanos(this, Math.min(left, OFFER_RECHECK_NANOS));
            if (Thread.interrupted()) {
                // the signature admits no interrupt: keep the flag for the caller, and the task untaken
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
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
    public Runnable take() throws InterruptedException {
        Runnable task = await(false, 0);
        if (task == null) {
            throw new IllegalStateException("an untimed wait ended without a task");
        }
        return task;
    }

    @Override
    public @Nullable Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        return await(true, unit.toNanos(timeout));
    }

    /** Waits, as the newest idle worker, for a task; {@code null} once a timed wait is over. */
    private @Nullable Runnable await(boolean timed, long nanos) throws InterruptedException {
        Waiter waiter = new Waiter();
        waiters.addFirst(waiter);
        long start = System.nanoTime();
        long deadline = start + nanos;
        // a caller offloading call after call hands its next task over within the window
        spinWindow.spin(start, timed ? nanos : Long.MAX_VALUE, waiter);
        boolean parked = false;
        while (true) {
            Object handed = waiter.slot.get();
            if (handed != null) {
                spinWindow.handedOver(System.nanoTime() - start, parked);
                return (Runnable) handed;
            }
            boolean interrupted = Thread.interrupted();
            long left = deadline - System.nanoTime();
            if (interrupted || timed && left <= 0) {
                if (waiter.slot.compareAndSet(null, Waiter.GAVE_UP)) {
                    waiters.remove(waiter);
                    if (interrupted) {
                        throw new InterruptedException();
                    }
                    spinWindow.gaveUp();
                    return null;
                }
                // a task arrived as the wait ended: take it, and keep the interrupt for the worker
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return (Runnable) waiter.slot.get();
            }
            parked = true;
            if (timed) {
                LockSupport.parkNanos(this, left);
            } else {
                LockSupport.park(this);
            }
        }
    }

    @Override
    public @Nullable Runnable poll() {
        return null; // nothing is ever held
    }

    @Override
    public @Nullable Runnable peek() {
        return null;
    }

    @Override
    public Iterator<Runnable> iterator() {
        return Collections.emptyIterator();
    }

    @Override
    public int size() {
        return 0;
    }

    @Override
    public int remainingCapacity() {
        return 0;
    }

    @Override
    public int drainTo(Collection<? super Runnable> target) {
        return 0;
    }

    @Override
    public int drainTo(Collection<? super Runnable> target, int most) {
        return 0;
    }

    /**
     * How many workers wait now (for tests and diagnostics).
     *
     * @return the idle workers
     */
    int waiting() {
        return (int) waiters.stream().filter(waiter -> waiter.slot.get() == null).count();
    }
}
