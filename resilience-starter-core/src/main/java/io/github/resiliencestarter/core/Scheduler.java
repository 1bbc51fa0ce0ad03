package io.github.resiliencestarter.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Where the engine runs its background work (settlements, lease extensions, the polls of a waiting
 * duplicate) and how a blocking execution waits. The JVM's threads by default; the deterministic
 * simulation of the idempotency protocol supplies its own, on simulated time, so that one seed
 * always gives one schedule.
 */
public interface Scheduler {

    /**
     * The JVM's clock and threads: tasks go to {@code CompletableFuture}'s default asynchronous
     * pool, where {@link CompletableFuture#delayedExecutor(long, TimeUnit)} sends them too.
     */
    Scheduler SYSTEM = on(new CompletableFuture<Void>().defaultExecutor());

    /**
     * The JVM's clock, with tasks run on {@code threads}.
     *
     * @param threads where tasks run
     * @return the scheduler
     */
    static Scheduler on(Executor threads) {
        return new Scheduler() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void execute(Runnable task) {
                threads.execute(task);
            }

            @Override
            public void schedule(Runnable task, long delayMillis) {
                CompletableFuture.delayedExecutor(delayMillis, TimeUnit.MILLISECONDS, threads).execute(task);
            }

            @Override
            public void sleep(long millis) throws InterruptedException {
                Thread.sleep(millis);
            }
        };
    }

    /**
     * Reads the clock this scheduler's delays are measured on.
     *
     * @return nanoseconds from an arbitrary but fixed origin
     */
    long nanoTime();

    /**
     * Runs {@code task} soon, on another thread.
     *
     * @param task the task
     */
    void execute(Runnable task);

    /**
     * Runs {@code task} after {@code delayMillis}, on another thread.
     *
     * @param task the task
     * @param delayMillis the delay
     */
    void schedule(Runnable task, long delayMillis);

    /**
     * Parks the calling thread for {@code millis}.
     *
     * @param millis how long
     * @throws InterruptedException when interrupted while parked
     */
    void sleep(long millis) throws InterruptedException;
}
