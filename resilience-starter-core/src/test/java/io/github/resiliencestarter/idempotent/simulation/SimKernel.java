package io.github.resiliencestarter.idempotent.simulation;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Simulated time and threads for one schedule. Events run in order of their time (ties in the
 * order they were scheduled); an engine task runs on a simulation thread, and exactly one thread,
 * the kernel's or one simulation thread, runs at any moment: a simulation thread runs until it
 * parks (a simulated sleep or store round trip) or ends, and hands the turn back. So a seed decides
 * the whole interleaving, and the same seed replays it exactly.
 */
final class SimKernel {

    /** Thrown inside a simulation thread whose node died: unwinds the engine's stack, effects none. */
    static final class NodeGone extends Error {

        private static final long serialVersionUID = 1L;

        NodeGone() {
            super("node gone", null, false, false);
        }
    }

    /** One incarnation of a node: what events and threads belong to. A restarted node is a new life. */
    static final class Life {

        final int node;

        final int incarnation;

        boolean alive = true;

        /** Events of this life due before this time wait until it (a stop-the-world pause). */
        long pausedUntil;

        Life(int node, int incarnation) {
            this.node = node;
            this.incarnation = incarnation;
        }

        @Override
        public String toString() {
            return "n" + node + "." + incarnation;
        }
    }

    private record Event(long at, long seq, @Nullable Life life, Runnable action, @Nullable SimThread wakes) {
    }

    private static final long REAL_WAIT_SECONDS = 30;

    private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.at != b.at
            ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));

    private final Semaphore kernelTurn = new Semaphore(0);

    private final List<SimThread> parked = new ArrayList<>();

    private final ArrayDeque<SimThread> idle;

    final SplittableRandom random;

    private long now;

    /** Far more than a schedule's threads ever do at one instant; more is a loop that never waits. */
    private static final long MAX_EVENTS_AT_ONE_INSTANT = 100_000;

    private long seq;

    private @Nullable Throwable failure;

    /**
     * @param seed the seed of every choice made during the schedule
     * @param idle simulation threads left by an earlier kernel, reused
     */
    SimKernel(long seed, ArrayDeque<SimThread> idle) {
        this.random = new SplittableRandom(seed);
        this.idle = idle;
    }

    long nowNanos() {
        return now;
    }

    long nowMillis() {
        return now / 1_000_000L;
    }

    /** Runs {@code action} on the kernel thread at {@code atNanos}; dropped when {@code life} has died. */
    void at(long atNanos, @Nullable Life life, Runnable action) {
        queue.add(new Event(Math.max(atNanos, now), seq++, life, action, null));
    }

    /** Runs {@code task} on a simulation thread of {@code life} at {@code atNanos}. */
    void task(long atNanos, Life life, Runnable task) {
        at(atNanos, life, () -> start(life, task));
    }

    /** Wakes {@code thread} at {@code atNanos} if it still waits on {@code waitToken}. */
    void wake(long atNanos, SimThread thread, Object waitToken) {
        Life life = thread.life;
        queue.add(new Event(Math.max(atNanos, now), seq++, life, () -> resume(thread, waitToken), thread));
    }

    /** Hands the turn to a parked thread, if it still waits on {@code waitToken}. */
    void resume(SimThread thread, Object waitToken) {
        if (thread.waitingOn != waitToken) {
            return;
        }
        thread.waitingOn = null;
        parked.remove(thread);
        handTo(thread);
    }

    /** Parks the calling simulation thread until it is woken on {@code waitToken}; throws when its node died. */
    void park(Object waitToken) {
        SimThread self = SimThread.current();
        if (!self.life.alive) {
            throw new NodeGone();
        }
        self.waitingOn = waitToken;
        parked.add(self);
        kernelTurn.release();
        self.turn.acquireUninterruptibly();
        if (self.killed) {
            throw new NodeGone();
        }
    }

    /** Parks the calling simulation thread for {@code millis} of simulated time. */
    void sleep(long millis) {
        SimThread self = SimThread.current();
        Object token = new Object();
        wake(now + TimeUnit.MILLISECONDS.toNanos(millis), self, token);
        park(token);
    }

    /** Ends a life: its parked threads unwind now, its pending events are dropped. */
    void kill(Life life) {
        life.alive = false;
        for (SimThread thread : new ArrayList<>(parked)) {
            if (thread.life == life) {
                thread.killed = true;
                thread.waitingOn = null;
                parked.remove(thread);
                handTo(thread);
            }
        }
    }

    /** Runs events until none is left before {@code horizonNanos}. */
    void runUntil(long horizonNanos) {
        long sameInstant = 0;
        while (!queue.isEmpty() && queue.peek().at <= horizonNanos) {
            Event event = queue.poll();
            sameInstant = event.at == now ? sameInstant + 1 : 0;
            if (sameInstant > MAX_EVENTS_AT_ONE_INSTANT) {
                // a loop that never lets time pass would hang the run: fail it as the defect it is
                throw new AssertionError("livelock: more than " + MAX_EVENTS_AT_ONE_INSTANT
                        + " events at " + now / 1_000_000 + " ms without time passing");
            }
            now = event.at;
            Life life = event.life;
            if (life != null && !life.alive) {
                continue;
            }
            if (life != null && life.pausedUntil > now) {
                queue.add(new Event(life.pausedUntil, seq++, life, event.action, event.wakes));
                continue;
            }
            event.action.run();
            if (failure != null) {
                throw new AssertionError("a simulation thread failed: " + failure, failure);
            }
        }
    }

    /** Ends the schedule: every parked thread unwinds, and goes back to the idle threads. */
    void shutdown(List<Life> lives) {
        queue.clear();
        for (Life life : lives) {
            kill(life);
        }
        queue.clear();
    }

    private void start(Life life, Runnable task) {
        SimThread thread = idle.poll();
        if (thread == null) {
            thread = new SimThread();
            thread.start();
        }
        thread.kernel = this;
        thread.life = life;
        thread.killed = false;
        thread.task = task;
        handTo(thread);
    }

    private void handTo(SimThread thread) {
        thread.turn.release();
        try {
            if (!kernelTurn.tryAcquire(REAL_WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("a simulation thread blocked outside the simulation:\n"
                        + Arrays.toString(thread.getStackTrace()).replace(", ", "\n  "));
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", ex);
        }
    }

    /** A real thread that runs simulation tasks one at a time, only while it holds the turn. */
    static final class SimThread extends Thread {

        private static int created;

        final Semaphore turn = new Semaphore(0);

        volatile SimKernel kernel;

        volatile Life life;

        volatile @Nullable Runnable task;

        volatile @Nullable Object waitingOn;

        volatile boolean killed;

        SimThread() {
            super("simulation-" + (++created));
            setDaemon(true);
        }

        static SimThread current() {
            if (Thread.currentThread() instanceof SimThread thread) {
                return thread;
            }
            throw new IllegalStateException("not on a simulation thread: " + Thread.currentThread().getName());
        }

        @Override
        public void run() {
            while (true) {
                turn.acquireUninterruptibly();
                Runnable work = task;
                task = null;
                SimKernel owner = kernel;
                try (TraceScope none = TraceContextHolder.open(TraceContext.empty())) {
                    if (work != null) {
                        work.run();
                    }
                } catch (NodeGone gone) {
                    // its node died: the task ends here
                } catch (Throwable unexpected) {
                    if (owner.failure == null) {
                        owner.failure = unexpected;
                    }
                } finally {
                    Thread.interrupted();
                    owner.idle.push(this);
                    owner.kernelTurn.release();
                }
            }
        }
    }
}
