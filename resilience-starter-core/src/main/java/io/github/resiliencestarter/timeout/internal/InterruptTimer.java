package io.github.resiliencestarter.timeout.internal;

import io.github.resiliencestarter.core.InterruptMask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * One shared timer thread that interrupts callers at their deadline (INTERRUPT mode).
 *
 * <p>Arming and disarming take no lock: {@link #arm} pushes a {@link Ticket} onto a lock-free
 * stack, and {@link Ticket#disarm()} is one compare-and-set. The timer thread alone takes armed
 * tickets in, at the latest every {@value #INTAKE_MILLIS} ms (sooner when a new ticket is due
 * before its next wake-up), drops those already disarmed and keeps the others in its own heap
 * until their deadline. Most calls end long before the next intake, so their tickets never reach
 * the heap; a scheduler with cancellable tasks would instead take a lock and insert into, then
 * remove from, a shared heap on every call.
 *
 * <p>Each ticket's small state machine guarantees that an interrupt is delivered only while the
 * call is still running, and that the caller can wait for a delivery in flight and then clear the
 * flag, so the interrupt never leaks into the thread's next use. An interrupt may come up to one
 * intake period late when the timer thread is busy; never early.
 */
public final class InterruptTimer implements AutoCloseable {

    /** The longest the timer thread leaves newly armed tickets waiting to be taken in, in ms. */
    public static final long INTAKE_MILLIS = 5;

    private static final long INTAKE_NANOS = TimeUnit.MILLISECONDS.toNanos(INTAKE_MILLIS);

    /** Heap size at which tickets disarmed after their intake are swept out. */
    private static final int FIRST_SWEEP_AT = 4096;

    private final AtomicReference<@Nullable Ticket> armed = new AtomicReference<>();

    /** When the timer thread wakes next ({@link System#nanoTime()}), unless it is {@link #idle}. */
    private volatile long nextWake;

    private volatile boolean idle = true;

    private volatile boolean closed;

    private final PriorityQueue<Ticket> heap = new PriorityQueue<>((a, b) -> Long.compare(a.due - b.due, 0));

    private int sweepAt = FIRST_SWEEP_AT;

    private final Thread thread;

    /**
     * Creates the timer and starts its daemon thread with the given name.
     *
     * @param threadName the timer thread's name
     */
    public InterruptTimer(String threadName) {
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * Arms an interrupt of {@code target} after {@code delayNanos}.
     *
     * @param target the thread to interrupt
     * @param delayNanos delay until the interrupt
     * @return the ticket the caller must {@link Ticket#disarm() disarm} when its work ends
     */
    public Ticket arm(Thread target, long delayNanos) {
        return armUntil(target, System.nanoTime() + Math.max(0, delayNanos));
    }

    /**
     * Arms an interrupt of {@code target} at {@code dueNanos}, a {@link System#nanoTime()} value:
     * for a caller that already read the clock.
     *
     * @param target the thread to interrupt
     * @param dueNanos when to interrupt, on {@link System#nanoTime()}'s scale
     * @return the ticket the caller must {@link Ticket#disarm() disarm} when its work ends
     */
    public Ticket armUntil(Thread target, long dueNanos) {
        Ticket ticket = new Ticket(target, dueNanos);
        Ticket head;
        do {
            head = armed.get();
            ticket.next = head;
        } while (!armed.compareAndSet(head, ticket));
        // the timer sleeps until nextWake: wake it only when this ticket is due before that
        if (idle || ticket.due - nextWake < 0) {
            LockSupport.unpark(thread);
        }
        return ticket;
    }

    /**
     * Tickets the timer thread holds in its heap, disarmed ones not yet swept included; read from
     * another thread it is an estimate.
     *
     * @return the count
     */
    int held() {
        return heap.size();
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    private void run() {
        while (!closed) {
            Ticket batch = armed.getAndSet(null);
            takeIn(batch);
            long now = System.nanoTime();
            Ticket first;
            while ((first = heap.peek()) != null && (!first.isRunning() || first.due - now <= 0)) {
                heap.poll().fire();
            }
            if (heap.size() >= sweepAt) {
                heap.removeIf(ticket -> !ticket.isRunning());
                sweepAt = Math.max(FIRST_SWEEP_AT, heap.size() * 2);
            }
            if (first == null && batch == null) {
                // nothing armed since the last intake: sleep until a caller arms a ticket (it sees idle)
                idle = true;
                if (armed.get() == null && !closed) {
                    LockSupport.park(this);
                }
                idle = false;
                continue;
            }
            long intake = now + INTAKE_NANOS;
            long wake = first != null && first.due - intake < 0 ? first.due : intake;
            nextWake = wake;
            LockSupport.parkNanos(this, wake - now);
        }
    }

    private void takeIn(@Nullable Ticket batch) {
        for (Ticket ticket = batch; ticket != null;) {
            Ticket next = ticket.next;
            ticket.next = null;
            if (ticket.isRunning()) {
                heap.add(ticket);
            }
            ticket = next;
        }
    }

    /** One armed interrupt. */
    public static final class Ticket {

        private static final int RUNNING = 0;

        private static final int DISARMED = 1;

        private static final int INTERRUPTING = 2;

        private static final int INTERRUPTED = 3;

        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Ticket.class, "state", int.class);
            } catch (ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final Thread target;

        private final long due;

        @SuppressWarnings("unused") // through STATE
        private volatile int state;

        /** Whether the interrupt was held by an uninterruptible section of the target; read after INTERRUPTED. */
        private boolean held;

        /** The next ticket armed before this one, until the timer thread takes them in. */
        private @Nullable Ticket next;

        private Ticket(Thread target, long due) {
            this.target = target;
            this.due = due;
        }

        /**
         * A ticket no timer holds, for a thread another thread may interrupt once (OFFLOAD's
         * cancellation of its worker): the same guarantees, fired by {@link #fire()}.
         *
         * @param target the thread to interrupt, usually the current one
         * @return the ticket, running
         */
        public static Ticket unscheduled(Thread target) {
            return new Ticket(target, 0);
        }

        boolean isRunning() {
            return state == RUNNING;
        }

        /**
         * Interrupts the target if its work still runs; a target inside an
         * {@link InterruptMask#uninterruptibly uninterruptible section} gets the interrupt when
         * the section ends.
         */
        public void fire() {
            if (STATE.compareAndSet(this, RUNNING, INTERRUPTING)) {
                held = InterruptMask.interrupt(target);
                state = INTERRUPTED;
            }
        }

        /**
         * Ends the armed period; must be called by the target thread when its work ends.
         *
         * @return {@code true} when the work ended before the interrupt fired; {@code false} when the
         *     interrupt fired, in which case this call has waited for it and cleared the flag
         */
        public boolean disarm() {
            if (STATE.compareAndSet(this, RUNNING, DISARMED)) {
                return true;
            }
            while (state == INTERRUPTING) {
                Thread.onSpinWait();
            }
            if (held) {
                // still held by a section the thread is in: it must not arrive once the section ends
                InterruptMask.withdraw();
            }
            Thread.interrupted();
            return false;
        }
    }
}
