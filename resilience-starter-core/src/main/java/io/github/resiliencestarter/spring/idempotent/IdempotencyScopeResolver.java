package io.github.resiliencestarter.spring.idempotent;

/**
 * Names the caller an idempotency key belongs to, so the same key sent by two users are two
 * different records and neither can replay the other's response. Replace the bean to scope by
 * tenant or client id instead.
 */
@FunctionalInterface
public interface IdempotencyScopeResolver {

    /** A resolver that puts every caller in one scope. */
    IdempotencyScopeResolver NONE = () -> "";

    /**
     * The current caller's scope.
     *
     * @return a stable name, or empty for anonymous callers
     */
    String currentScope();
}
