package io.github.resiliencestarter.idempotent;

/**
 * Wraps the store the executor talks to (for metrics, for instance), leaving the store itself
 * untouched for everything else that needs its concrete type.
 */
@FunctionalInterface
public interface IdempotencyStoreDecorator {

    /**
     * Wraps a store.
     *
     * @param store the store
     * @return the store to use
     */
    IdempotencyStore decorate(IdempotencyStore store);
}
