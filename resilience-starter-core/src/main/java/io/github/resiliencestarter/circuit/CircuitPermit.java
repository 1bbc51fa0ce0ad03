package io.github.resiliencestarter.circuit;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One admitted call whose start and end happen in different places (a load balancer's lifecycle
 * callbacks, for instance): taken with {@link CircuitGuard#acquire()}, reported exactly once with
 * {@link #succeeded()} or {@link #failed(Throwable)}. Judged like a call through
 * {@link CircuitGuard#call}.
 */
public final class CircuitPermit {

    private final Runnable success;

    private final Function<Throwable, Throwable> failure;

    CircuitPermit(Runnable success, Function<Throwable, Throwable> failure) {
        this.success = success;
        this.failure = failure;
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
