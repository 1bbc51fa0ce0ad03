package io.github.resiliencestarter.core;

import org.jspecify.annotations.Nullable;

/**
 * A unit of work that may throw anything, checked exceptions included, so an engine can run an
 * intercepted method and hand back exactly what it threw.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface CheckedCallable<T extends @Nullable Object> {

    /**
     * Runs the work.
     *
     * @return the result
     * @throws Throwable whatever the work threw, unchanged
     */
    T call() throws Throwable;
}
