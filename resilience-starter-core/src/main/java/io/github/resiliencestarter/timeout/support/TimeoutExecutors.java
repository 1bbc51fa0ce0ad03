package io.github.resiliencestarter.timeout.support;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates the bounded executor that {@code OFFLOAD} timeouts run on.
 *
 * <p>Bounded in threads and queue, with named threads, and rejecting when full: a caller-runs
 * policy would run the work on the caller's thread with no timeout at all.
 */
public final class TimeoutExecutors {

    /** Threads kept alive when idle. */
    public static final int DEFAULT_CORE_SIZE = 8;

    /** Most threads running at once. */
    public static final int DEFAULT_MAX_SIZE = 64;

    /** Tasks that may wait for a thread; 0 hands off directly and rejects when all threads are busy. */
    public static final int DEFAULT_QUEUE_CAPACITY = 0;

    /** How long a thread above the core size may stay idle. */
    public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(60);

    /** Prefix of the worker thread names. */
    public static final String DEFAULT_THREAD_NAME_PREFIX = "resilience-timeout-";

    private TimeoutExecutors() {
    }

    /**
     * A bounded executor with the defaults.
     *
     * @return a new executor
     */
    public static ThreadPoolExecutor newBoundedExecutor() {
        return newBoundedExecutor(DEFAULT_THREAD_NAME_PREFIX, DEFAULT_CORE_SIZE, DEFAULT_MAX_SIZE,
                DEFAULT_QUEUE_CAPACITY, DEFAULT_KEEP_ALIVE);
    }

    /**
     * A bounded executor that rejects with {@link java.util.concurrent.RejectedExecutionException}
     * when all threads are busy and the queue is full.
     *
     * @param threadNamePrefix prefix of thread names
     * @param coreSize threads kept alive when idle (at least 0)
     * @param maxSize most threads (at least 1; a larger {@code coreSize} is lowered to it)
     * @param queueCapacity tasks that may wait (0 for direct hand-off)
     * @param keepAlive idle time before a thread above the core size ends
     * @return a new executor
     */
    public static ThreadPoolExecutor newBoundedExecutor(String threadNamePrefix, int coreSize, int maxSize,
            int queueCapacity, Duration keepAlive) {
        checkSizes(coreSize, maxSize, queueCapacity);
        BlockingQueue<Runnable> queue = queueCapacity == 0 ? new DirectHandoffQueue()
                : new ArrayBlockingQueue<>(queueCapacity);
        // a core size above the maximum follows it down: max-size alone is "at most this many threads"
        ThreadPoolExecutor executor = new ThreadPoolExecutor(Math.min(coreSize, maxSize), maxSize,
                keepAlive.toNanos(), TimeUnit.NANOSECONDS, queue, namedThreads(threadNamePrefix),
                new ThreadPoolExecutor.AbortPolicy());
        return executor;
    }

    /**
     * Checks the sizes of a bounded executor.
     *
     * @param coreSize at least 0
     * @param maxSize at least 1 (a larger core size is lowered to it)
     * @param queueCapacity at least 0
     * @throws InvalidSettingException naming the size that is wrong
     */
    public static void checkSizes(int coreSize, int maxSize, int queueCapacity) {
        if (coreSize < 0) {
            throw new InvalidSettingException("coreSize", "must not be negative", coreSize);
        }
        if (maxSize < 1) {
            throw new InvalidSettingException("maxSize", "must be at least 1", maxSize);
        }
        if (queueCapacity < 0) {
            throw new InvalidSettingException("queueCapacity", "must not be negative", queueCapacity);
        }
    }

    /**
     * A thread factory naming threads {@code prefix + n}.
     *
     * @param prefix the name prefix
     * @return the factory
     */
    public static ThreadFactory namedThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + counter.incrementAndGet());
            thread.setDaemon(false);
            return thread;
        };
    }
}
