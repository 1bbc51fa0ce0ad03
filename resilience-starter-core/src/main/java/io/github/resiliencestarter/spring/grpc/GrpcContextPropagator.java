package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.core.ContextPropagator;
import io.grpc.Context;

/**
 * Carries the gRPC {@link Context} of an inbound call to the workers the starter runs code on
 * (OFFLOAD timeout workers, task executors), as gRPC's own {@code Context.wrap} would: the call's
 * metadata ({@link InboundCall}, the {@code idempotency-key} entry), its deadline and its
 * cancellation. Outside a call nothing is captured.
 */
public class GrpcContextPropagator implements ContextPropagator {

    @Override
    public Restorer capture() {
        if (InboundCall.current() == null) {
            return Restorer.NOTHING;
        }
        Context captured = Context.current();
        return () -> {
            Context previous = captured.attach();
            return () -> captured.detach(previous);
        };
    }
}
