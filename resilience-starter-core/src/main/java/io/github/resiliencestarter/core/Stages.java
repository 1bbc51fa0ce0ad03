package io.github.resiliencestarter.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * Cancellation across the layers of an asynchronous call. A {@link CompletableFuture} derived from
 * another ({@code thenApply}, {@code exceptionallyCompose}, {@code whenComplete}) does not cancel
 * its source when it is cancelled, so a timeout that cancels what a layer handed it would stop
 * only that layer, and the work below would keep running. Every layer that hands out a derived
 * future links it back to its source here.
 */
public final class Stages {

    private Stages() {
    }

    /**
     * Makes cancelling {@code derived} cancel {@code source} too (with interruption, for a task).
     *
     * @param derived what a layer hands to the layer above
     * @param source what it was derived from
     * @param <T> the value type
     * @return {@code derived}
     */
    public static <T> CompletableFuture<T> cancelling(CompletableFuture<T> derived, Future<?> source) {
        if (derived != source) {
            derived.whenComplete((value, failure) -> {
                if (derived.isCancelled()) {
                    source.cancel(true);
                }
            });
        }
        return derived;
    }
}
