package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.idempotent.EntryPointCaller;
import io.github.resiliencestarter.idempotent.IdempotencyScopeException;
import io.grpc.Context;
import org.jspecify.annotations.Nullable;

/**
 * The caller of an inbound gRPC call, read with the application's {@link GrpcPrincipal}: applies
 * while a handler runs for a call {@link TraceContextServerInterceptor} made current, on the
 * handler's thread or a worker the call's context was carried to. A call whose caller the
 * principal cannot name fails closed.
 */
public class GrpcCallerScope implements EntryPointCaller {

    private final GrpcPrincipal principal;

    /**
     * Creates the scope source.
     *
     * @param principal reads the caller from the call's context
     */
    public GrpcCallerScope(GrpcPrincipal principal) {
        this.principal = principal;
    }

    @Override
    public @Nullable String scope() {
        if (InboundCall.current() == null) {
            return null;
        }
        String name = principal.name(Context.current());
        if (name == null) {
            throw new IdempotencyScopeException("The application authenticates its gRPC callers, but this call "
                    + "carries none its GrpcPrincipal can name: the idempotency key cannot be scoped to the caller");
        }
        return name;
    }
}
