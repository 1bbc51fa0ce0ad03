package io.github.resiliencestarter.timeout;

import com.alibaba.ttl.TtlCallable;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.rollout.FirstObservations;
import io.github.resiliencestarter.timeout.internal.InterruptTimer;
import io.github.resiliencestarter.timeout.support.TimeoutExecutors;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The shared resources every {@link TimeoutGuard} uses: the OFFLOAD executor, the INTERRUPT timer,
 * the propagator of extra thread-bound state and the time source. One per application; closing it
 * drains the executor gracefully.
 */
public final class TimeoutRuntime implements AutoCloseable {

    /** How long {@link #close()} waits for running OFFLOAD work by default. */
    public static final Duration DEFAULT_AWAIT_TERMINATION = Duration.ofSeconds(10);

    /** Name of the INTERRUPT timer thread. */
    public static final String TIMER_THREAD_NAME = "resilience-timeout-timer";

    /** Name of the thread that ends asynchronous results at their deadline. */
    public static final String ASYNC_TIMER_THREAD_NAME = "resilience-async-timer";

    private final ExecutorService executor;

    private final InterruptTimer timer;

    private final ContextPropagator propagator;

    private final TimeSource time;

    private final Duration awaitTermination;

    private final TimeoutObserver observer;

    private final FirstObservations observed = new FirstObservations();

    private volatile @Nullable ScheduledThreadPoolExecutor asyncTimer;

    private TimeoutRuntime(Builder builder) {
        this.executor = builder.executor != null ? builder.executor : TimeoutExecutors.newBoundedExecutor();
        this.timer = new InterruptTimer(TIMER_THREAD_NAME);
        this.propagator = builder.propagator;
        this.time = builder.time;
        this.awaitTermination = builder.awaitTermination;
        this.observer = builder.observer;
    }

    /**
     * A runtime with a default bounded executor and no extra propagation.
     *
     * @return a new runtime
     */
    public static TimeoutRuntime ofDefaults() {
        return builder().build();
    }

    /**
     * A builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    ExecutorService executor() {
        return executor;
    }

    /**
     * Starts {@code task} on the bounded executor with the calling thread's context: the trace
     * context and other TTL values, the MDC, and what the propagator carries (request attributes,
     * security context). Used by hedged retries, whose attempts run side by side.
     *
     * @param task the task
     * @param <T> its result type
     * @return its future; {@code cancel(true)} interrupts it while it runs
     * @throws RejectedExecutionException when the executor is saturated (never run on the caller)
     */
    public <T> Future<T> offload(Callable<T> task) {
        ContextPropagator.Restorer restorer = propagator.capture();
        Callable<T> restoring = () -> {
            try (ContextPropagator.Restorer.Scope restored = restorer.restore()) {
                return task.call();
            }
        };
        return executor.submit(TtlCallable.get(restoring));
    }

    InterruptTimer timer() {
        return timer;
    }

    /** The timer of asynchronous deadlines, started on first use: most applications never need it. */
    ScheduledExecutorService asyncTimer() {
        ScheduledThreadPoolExecutor current = asyncTimer;
        if (current == null) {
            synchronized (this) {
                current = asyncTimer;
                if (current == null) {
                    current = new ScheduledThreadPoolExecutor(1, task -> {
                        Thread thread = new Thread(task, ASYNC_TIMER_THREAD_NAME);
                        thread.setDaemon(true);
                        return thread;
                    });
                    // a result that completes in time cancels its timer: drop it at once, not at the deadline
                    current.setRemoveOnCancelPolicy(true);
                    asyncTimer = current;
                }
            }
        }
        return current;
    }

    /**
     * What carries thread-bound state to the runtime's workers, for work the starter schedules
     * elsewhere (a retry's delayed attempt, a hedge started by a timer).
     *
     * @return the propagator
     */
    public ContextPropagator propagator() {
        return propagator;
    }

    TimeSource time() {
        return time;
    }

    TimeoutObserver observer() {
        return observer;
    }

    /**
     * Tells the observer an annotated method's configured limit (resolved, or reloaded).
     *
     * @param operation the method's operation name
     * @param limit its limit
     */
    public void configured(String operation, Duration limit) {
        observer.onLimit(operation, limit);
    }

    /** What observing guards have logged once already. */
    FirstObservations observed() {
        return observed;
    }

    /** Stops accepting work, waits up to the configured time for running work, then interrupts it. */
    @Override
    public void close() {
        timer.close();
        ScheduledThreadPoolExecutor async = asyncTimer;
        if (async != null) {
            async.shutdownNow();
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(awaitTermination.toNanos(), TimeUnit.NANOSECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException ex) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Builds a {@link TimeoutRuntime}. */
    public static final class Builder {

        private @Nullable ExecutorService executor;

        private ContextPropagator propagator = ContextPropagator.NONE;

        private TimeSource time = TimeSource.SYSTEM;

        private Duration awaitTermination = DEFAULT_AWAIT_TERMINATION;

        private TimeoutObserver observer = TimeoutObserver.NOOP;

        private Builder() {
        }

        /**
         * Who hears how guarded calls end (metrics).
         *
         * @param value the observer
         * @return this builder
         */
        public Builder observer(TimeoutObserver value) {
            this.observer = Objects.requireNonNull(value, "observer");
            return this;
        }

        /**
         * The executor OFFLOAD work runs on. It should be bounded and reject when full; the runtime
         * owns it and shuts it down on close.
         *
         * @param value the executor
         * @return this builder
         */
        public Builder executor(ExecutorService value) {
            this.executor = Objects.requireNonNull(value, "executor");
            return this;
        }

        /**
         * Extra thread-bound state to carry to OFFLOAD workers (the trace context, other TTL values
         * and the MDC are always carried).
         *
         * @param value the propagator
         * @return this builder
         */
        public Builder propagator(ContextPropagator value) {
            this.propagator = Objects.requireNonNull(value, "propagator");
            return this;
        }

        /**
         * The time source for deadlines.
         *
         * @param value the time
         * @return this builder
         */
        public Builder timeSource(TimeSource value) {
            this.time = Objects.requireNonNull(value, "time");
            return this;
        }

        /**
         * How long {@link TimeoutRuntime#close()} waits for running work.
         *
         * @param value the wait
         * @return this builder
         */
        public Builder awaitTermination(Duration value) {
            this.awaitTermination = Objects.requireNonNull(value, "awaitTermination");
            return this;
        }

        /**
         * Builds the runtime.
         *
         * @return the runtime
         */
        public TimeoutRuntime build() {
            return new TimeoutRuntime(this);
        }
    }
}
