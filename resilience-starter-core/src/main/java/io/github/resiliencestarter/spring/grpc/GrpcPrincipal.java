package io.github.resiliencestarter.spring.grpc;

import io.grpc.Context;
import org.jspecify.annotations.Nullable;

/**
 * Reads the caller of an inbound gRPC call from the call's {@link Context}, where the application's
 * own authentication put it (the usual way: a {@code ServerInterceptor} that checks a token and
 * calls {@code Contexts.interceptCall} with a {@code Context.Key} of its own). Define one as a bean
 * and {@code @Idempotent} service methods scope their keys by it: two callers sending the same
 * {@code idempotency-key} are two records, and neither replays the other's answer.
 */
@FunctionalInterface
public interface GrpcPrincipal {

    /**
     * The caller's name.
     *
     * @param call the call's context, as the handler sees it
     * @return a stable name; empty for an anonymous caller the application lets through; {@code null}
     *     when the call carries no caller (a keyed call is then refused, never put in a shared scope)
     */
    @Nullable String name(Context call);
}
