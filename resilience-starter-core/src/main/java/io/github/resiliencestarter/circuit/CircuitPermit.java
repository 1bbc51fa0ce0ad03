package io.github.resiliencestarter.circuit;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One admitted call whose start and end happen in different places (a load balancer's lifecycle
 * callbacks, for instance): taken with {@link CircuitGuard#acquire(boolean)}, reported exactly once
 * with {@link #succeeded()}, {@link #failed(Throwable)} or {@link #released()}. Judged like a call
 * through {@link CircuitGuard#call}.
 */
public final class CircuitPermit {

    private final Runnable success;

    private final Function<Throwable, Throwable> failure;

    private final Runnable release;

    CircuitPermit(Runnable success, Function<Throwable, Throwable> failure, Runnable release) {
        this.success = success;
        this.failure = failure;
        this.release = release;
    }

    /** The call's outcome will never be known (it was abandoned): the permit is given back, nothing counted. */
    public void released() {
        release.run();
    }

    /** The call succeeded. */
    public void succeeded() {
        success.run();
    }

    /**
     * The call failed.
     *
     * @param error its failure, judged by the breaker's classification
     * @return {@code error}, carrying the breaker's retry gate
     */
    public Throwable failed(@Nullable Throwable error) {
        return failure.apply(error != null ? error : new IllegalStateException("failed without an error"));
    }
}
