package io.github.resiliencestarter.core;

import com.alibaba.ttl.TtlRunnable;
import java.util.List;

/**
 * Carries thread-bound state that is not a {@code TransmittableThreadLocal} (a web request's
 * attributes, a locale, a security context) from the thread that submits work to the thread that
 * runs it.
 *
 * <p>{@link #capture()} runs on the submitting thread; the returned {@link Restorer} installs the
 * captured state on the worker and its {@link Restorer.Scope} puts the worker back as it was.
 */
@FunctionalInterface
public interface ContextPropagator {

    /** A propagator that carries nothing. */
    ContextPropagator NONE = () -> Restorer.NOTHING;

    /**
     * Captures the current thread's state.
     *
     * @return something that can install the captured state on another thread
     */
    Restorer capture();

    /**
     * {@code task}, to run later on another thread with what is thread-bound here: the trace
     * context and the MDC (TTL) and what this propagator captures now.
     *
     * @param task the task
     * @return the task, carrying this thread's state to the thread that runs it
     */
    default Runnable carry(Runnable task) {
        Restorer restorer = capture();
        Runnable withState = restorer == Restorer.NOTHING ? task : () -> {
            try (Restorer.Scope restored = restorer.restore()) {
                task.run();
            }
        };
        // idempotent: a task that is already a TTL wrapper keeps its own capture
        return TtlRunnable.get(withState, false, true);
    }

    /**
     * Combines several propagators into one that captures all of them in order.
     *
     * @param propagators the propagators
     * @return the combined propagator
     */
    static ContextPropagator composite(List<? extends ContextPropagator> propagators) {
        if (propagators.isEmpty()) {
            return NONE;
        }
        if (propagators.size() == 1) {
            return propagators.get(0);
        }
        ContextPropagator[] all = propagators.toArray(new ContextPropagator[0]);
        return () -> {
            Restorer[] captured = new Restorer[all.length];
            for (int i = 0; i < all.length; i++) {
                captured[i] = all[i].capture();
            }
            return () -> {
                Restorer.Scope[] scopes = new Restorer.Scope[captured.length];
                for (int i = 0; i < captured.length; i++) {
                    scopes[i] = captured[i].restore();
                }
                return () -> {
                    for (int i = scopes.length - 1; i >= 0; i--) {
                        scopes[i].close();
                    }
                };
            };
        };
    }

    /** Installs captured state on the current (worker) thread. */
    @FunctionalInterface
    interface Restorer {

        /** A restorer that installs nothing. */
        Restorer NOTHING = () -> Scope.NOOP;

        /**
         * Installs the captured state.
         *
         * @return a scope that undoes the installation when closed
         */
        Scope restore();

        /** Undoes one installation; closing never throws. */
        @FunctionalInterface
        interface Scope extends AutoCloseable {

            /** A scope with nothing to undo. */
            Scope NOOP = () -> { };

            @Override
            void close();
        }
    }
}
