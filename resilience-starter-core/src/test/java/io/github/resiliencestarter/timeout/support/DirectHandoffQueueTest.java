package io.github.resiliencestarter.timeout.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DirectHandoffQueueTest {

    @Test
    void aTaskNoWorkerWaitsForIsRefusedAndNothingIsQueued() throws Exception {
        DirectHandoffQueue queue = new DirectHandoffQueue();

        assertThat(queue.offer(() -> { })).isFalse();
        assertThat(queue.offer(() -> { }, 20, TimeUnit.MILLISECONDS)).isFalse();
        assertThatThrownBy(() -> queue.add(() -> { })).isInstanceOf(IllegalStateException.class);
        assertThat(queue).isEmpty();
        assertThat(queue.remainingCapacity()).isZero();
    }

    @Test
    void aWaitingWorkerTakesTheTaskAtOnce() throws Exception {
        DirectHandoffQueue queue = new DirectHandoffQueue();
        AtomicReference<Runnable> taken = new AtomicReference<>();
        Thread worker = new Thread(() -> {
            try {
                taken.set(queue.take());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        Runnable task = () -> { };

        // the worker may not be waiting yet: the timed offer waits for it, the untimed one would not
        assertThat(queue.offer(task, 5, TimeUnit.SECONDS)).isTrue();
        worker.join(5_000);
        assertThat(taken.get()).isSameAs(task);
    }

    @Test
    void anExecutorOnItStartsThreadsUpToItsMaximumAndThenRejects() throws Exception {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 2, 10, TimeUnit.SECONDS, new DirectHandoffQueue());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(2);
        try {
            for (int i = 0; i < 2; i++) {
                executor.execute(() -> {
                    running.countDown();
                    awaitQuietly(release);
                });
            }
            assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> executor.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
            assertThat(executor.getPoolSize()).isEqualTo(2);
        } finally {
            release.countDown();
            executor.shutdown();
            assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * Issue 47: with the worker that waited longest taking each task, a pool grown by a burst never
     * shrinks under a light load; the one that waited last must take it.
     */
    @Test
    void theWorkerThatWaitedLastTakesTheTask() throws Exception {
        DirectHandoffQueue queue = new DirectHandoffQueue();
        List<Thread> workers = new ArrayList<>();
        List<AtomicReference<Runnable>> taken = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            AtomicReference<Runnable> mine = new AtomicReference<>();
            Thread worker = new Thread(() -> {
                try {
                    mine.set(queue.poll(10, TimeUnit.SECONDS));
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
            worker.start();
            int waitingBefore = i;
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (queue.waiting() == waitingBefore && System.nanoTime() < giveUp) {
                Thread.onSpinWait(); // one at a time, so the order they wait in is known
            }
            assertThat(queue.waiting()).isEqualTo(i + 1);
            workers.add(worker);
            taken.add(mine);
        }
        Runnable task = () -> { };
        assertThat(queue.offer(task)).isTrue();
        workers.get(2).join(5_000);
        assertThat(taken.get(2).get()).as("the last to wait").isSameAs(task);
        assertThat(queue.waiting()).isEqualTo(2);
        workers.get(0).interrupt();
        workers.get(1).interrupt();
        workers.get(0).join(5_000);
        workers.get(1).join(5_000);
        assertThat(taken.get(0).get()).isNull();
        assertThat(taken.get(1).get()).isNull();
        assertThat(queue.waiting()).isZero();
    }

    @Test
    void aTimedWaitWithoutATaskEndsEmptyAndLeavesNoWaiterBehind() throws Exception {
        DirectHandoffQueue queue = new DirectHandoffQueue();
        assertThat(queue.poll(20, TimeUnit.MILLISECONDS)).isNull();
        assertThat(queue.waiting()).isZero();
        assertThat(queue.offer(() -> { })).isFalse();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
