package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.core.ContextPropagator;
import io.grpc.Context;

/**
 * Carries the values of an inbound call's gRPC {@link Context} to the workers the starter runs
 * code on (OFFLOAD timeout workers, task executors): the call's metadata ({@link InboundCall}, the
 * {@code idempotency-key} entry) among them. Not its cancellation or deadline: a task the call
 * starts may outlive it, and gRPC would cancel every call the task makes once the inbound call
 * ends (the deadline travels in the trace context). Outside a call nothing is captured.
 */
public class GrpcContextPropagator implements ContextPropagator {

    @Override
    public Restorer capture() {
        if (InboundCall.current() == null) {
            return Restorer.NOTHING;
        }
        Context captured = Context.current().fork();
        return () -> {
            Context previous = captured.attach();
            return () -> captured.detach(previous);
        };
    }
}
