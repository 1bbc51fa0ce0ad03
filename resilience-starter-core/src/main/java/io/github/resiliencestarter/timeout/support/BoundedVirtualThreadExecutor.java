package io.github.resiliencestarter.timeout.support;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * OFFLOAD work on virtual threads (Java 21 and later), still bounded: at most {@code maxConcurrent}
 * tasks run at once, and one more is rejected at once ({@link RejectedExecutionException}, a 503),
 * as the platform-thread executor rejects when all its threads are busy. Unbounded virtual threads
 * would turn a slow downstream into an unbounded pile of waiting work.
 *
 * <p>The starter is built for Java 17, so virtual threads are reached reflectively, once, here.
 */
public final class BoundedVirtualThreadExecutor extends AbstractExecutorService {

    private final ExecutorService threads;

    private final Semaphore permits;

    private final int maxConcurrent;

    private BoundedVirtualThreadExecutor(ExecutorService threads, int maxConcurrent) {
        this.threads = threads;
        this.permits = new Semaphore(maxConcurrent);
        this.maxConcurrent = maxConcurrent;
    }

    /**
     * Whether this Java runs virtual threads.
     *
     * @return {@code true} on Java 21 and later
     */
    public static boolean isSupported() {
        return Runtime.version().feature() >= 21;
    }

    /**
     * A new executor.
     *
     * @param threadNamePrefix prefix of the virtual threads' names
     * @param maxConcurrent most tasks running at once (at least 1)
     * @return the executor
     * @throws UnsupportedOperationException before Java 21
     */
    public static BoundedVirtualThreadExecutor create(String threadNamePrefix, int maxConcurrent) {
        if (maxConcurrent < 1) {
            throw new InvalidSettingException("maxSize", "must be at least 1", maxConcurrent);
        }
        if (!isSupported()) {
            throw new UnsupportedOperationException("virtual threads need Java 21 or later, this is "
                    + Runtime.version());
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            Object builder = lookup.findStatic(Thread.class, "ofVirtual",
                    MethodType.methodType(Class.forName("java.lang.Thread$Builder$OfVirtual"))).invoke();
            MethodHandle name = lookup.findVirtual(builderType, "name",
                    MethodType.methodType(builderType, String.class, long.class));
            MethodHandle factory = lookup.findVirtual(builderType, "factory", MethodType.methodType(ThreadFactory.class));
            ThreadFactory virtualThreads = (ThreadFactory) factory.invoke(name.invoke(builder, threadNamePrefix, 0L));
            ExecutorService perTask = (ExecutorService) lookup.findStatic(java.util.concurrent.Executors.class,
                    "newThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class, ThreadFactory.class))
                    .invoke(virtualThreads);
            return new BoundedVirtualThreadExecutor(perTask, maxConcurrent);
        } catch (Throwable ex) {
            throw new IllegalStateException("could not create virtual threads on " + Runtime.version(), ex);
        }
    }

    /**
     * The bound.
     *
     * @return most tasks running at once
     */
    public int maxConcurrent() {
        return maxConcurrent;
    }

    @Override
    public void execute(Runnable command) {
        if (!permits.tryAcquire()) {
            throw new RejectedExecutionException("all " + maxConcurrent + " virtual-thread permits are taken");
        }
        try {
            threads.execute(() -> {
                try {
                    command.run();
                } finally {
                    permits.release();
                }
            });
        } catch (RejectedExecutionException ex) {
            permits.release();
            throw ex;
        }
    }

    @Override
    public void shutdown() {
        threads.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return threads.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return threads.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return threads.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return threads.awaitTermination(timeout, unit);
    }
}
