package io.github.resiliencestarter.it.grpc;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/** Test only: puts the attempt number a caller sent into the context, so the handler can report it. */
final class AttemptReader implements ServerInterceptor {

    private static final Metadata.Key<String> ATTEMPT = Metadata.Key.of("x-retry-attempt",
            Metadata.ASCII_STRING_MARSHALLER);

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        String sent = headers.get(ATTEMPT);
        int attempt = sent == null ? 0 : Integer.parseInt(sent);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
            @Override
            public void onHalfClose() {
                try (TraceScope scope = TraceContextHolder.open(TraceContextHolder.current().withAttempt(attempt))) {
                    super.onHalfClose();
                }
            }
        };
    }
}
