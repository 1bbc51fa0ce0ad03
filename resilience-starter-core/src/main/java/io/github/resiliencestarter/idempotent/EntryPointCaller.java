package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * The caller of the running call as an entry point knows it where the thread's holders do not: a
 * gRPC call authenticated by the application's own {@code ServerInterceptor} keeps its principal in
 * the call's {@code Context}, never in Spring Security's holder. The web layer's scope resolver
 * asks these first.
 */
@FunctionalInterface
public interface EntryPointCaller {

    /**
     * The running call's scope, when the running call is this entry point's.
     *
     * @return {@code null} when the running call is not this entry point's; else the caller's
     *     scope (empty for an anonymous caller the application let through)
     * @throws IdempotencyScopeException when the call is this
     *     entry point's and its caller cannot be resolved: the call fails closed
     */
    @Nullable String scope();
}
