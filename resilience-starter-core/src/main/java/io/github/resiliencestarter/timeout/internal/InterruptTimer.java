package io.github.resiliencestarter.timeout.internal;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One shared timer thread that interrupts callers at their deadline (INTERRUPT mode).
 *
 * <p>Each armed call gets a {@link Ticket} whose small state machine guarantees that an interrupt
 * is delivered only while the call is still running, and that the caller can wait for a delivery
 * in flight and then clear the flag, so the interrupt never leaks into the thread's next use.
 */
public final class InterruptTimer implements AutoCloseable {

    private final ScheduledThreadPoolExecutor scheduler;

    /**
     * Creates the timer with one daemon thread of the given name.
     *
     * @param threadName the timer thread's name
     */
    public InterruptTimer(String threadName) {
        this.scheduler = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        this.scheduler.setRemoveOnCancelPolicy(true);
    }

    /**
     * Arms an interrupt of {@code target} after {@code delayNanos}.
     *
     * @param target the thread to interrupt
     * @param delayNanos delay until the interrupt
     * @return the ticket the caller must {@link Ticket#disarm() disarm} when its work ends
     */
    public Ticket arm(Thread target, long delayNanos) {
        Ticket ticket = new Ticket(target);
        ticket.future = scheduler.schedule(ticket, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        return ticket;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /** One armed interrupt. */
    public static final class Ticket implements Runnable {

        private static final int RUNNING = 0;

        private static final int DISARMED = 1;

        private static final int INTERRUPTING = 2;

        private static final int INTERRUPTED = 3;

        private final AtomicInteger state = new AtomicInteger(RUNNING);

        private final Thread target;

        private volatile @Nullable ScheduledFuture<?> future;

        private Ticket(Thread target) {
            this.target = target;
        }

        @Override
        public void run() {
            if (state.compareAndSet(RUNNING, INTERRUPTING)) {
                target.interrupt();
                state.set(INTERRUPTED);
            }
        }

        /**
         * Ends the armed period; must be called by the target thread when its work ends.
         *
         * @return {@code true} when the work ended before the interrupt fired; {@code false} when the
         *     interrupt fired, in which case this call has waited for it and cleared the flag
         */
        public boolean disarm() {
            if (state.compareAndSet(RUNNING, DISARMED)) {
                ScheduledFuture<?> scheduled = future;
                if (scheduled != null) {
                    scheduled.cancel(false);
                }
                return true;
            }
            while (state.get() == INTERRUPTING) {
                Thread.onSpinWait();
            }
            Thread.interrupted();
            return false;
        }
    }
}
