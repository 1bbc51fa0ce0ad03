package io.github.resiliencestarter.testsupport;

import io.github.resiliencestarter.core.Scheduler;
import java.util.PriorityQueue;

/**
 * A {@link Scheduler} on a {@link ManualTime}, for unit tests of the engine: tasks run on the
 * test's thread, in the order of their time, only when the test moves the clock
 * ({@link #advance}) or asks for what is due now ({@link #runDue}).
 */
public final class ManualScheduler implements Scheduler {

    private record Task(long atMillis, long order, Runnable task) {
    }

    private final ManualTime time;

    private final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> a.atMillis != b.atMillis
            ? Long.compare(a.atMillis, b.atMillis) : Long.compare(a.order, b.order));

    private long order;

    /**
     * A scheduler on {@code time}.
     *
     * @param time the clock its delays are measured on
     */
    public ManualScheduler(ManualTime time) {
        this.time = time;
    }

    @Override
    public long nanoTime() {
        return time.nanoTime();
    }

    @Override
    public void execute(Runnable task) {
        schedule(task, 0);
    }

    @Override
    public void schedule(Runnable task, long delayMillis) {
        tasks.add(new Task(time.epochMillis() + delayMillis, order++, task));
    }

    @Override
    public void sleep(long millis) {
        advance(millis);
    }

    /**
     * The tasks scheduled and not yet run.
     *
     * @return how many
     */
    public int pending() {
        return tasks.size();
    }

    /** Runs every task due by now, those they schedule for now included. */
    public void runDue() {
        while (!tasks.isEmpty() && tasks.peek().atMillis <= time.epochMillis()) {
            tasks.poll().task.run();
        }
    }

    /**
     * Moves the clock forward a millisecond at a time, running what falls due on the way.
     *
     * @param millis how far
     */
    public void advance(long millis) {
        runDue();
        for (long m = 0; m < millis; m++) {
            time.advance(1);
            runDue();
        }
    }
}
