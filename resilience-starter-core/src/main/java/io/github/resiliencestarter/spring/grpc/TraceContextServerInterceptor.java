package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.spring.web.InboundTraceContext;
import io.grpc.Context;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;

/**
 * Runs every callback of an inbound call (the handler's start, each message, the half-close) in
 * the call's trace context: the trace id from its metadata ({@code x-trace-id}, {@code traceparent}),
 * validated as on HTTP, the deadline from the call's own gRPC deadline, capped. A call whose deadline
 * has passed is answered {@code DEADLINE_EXCEEDED} without running. The starter's failures, thrown or
 * given to {@code onError}, are answered with their status ({@link GrpcStatuses}) instead of
 * {@code UNKNOWN}. The call's metadata is readable as request headers ({@link InboundCall}), so
 * {@code @Idempotent} reads its {@code idempotency-key} entry, and a replayed answer carries
 * {@code idempotent-replayed: true} in its headers.
 */
public class TraceContextServerInterceptor implements ServerInterceptor, Ordered {

    /** Before other interceptors that order themselves, so they run in the call's context. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

    private final InboundTraceContext traceIds;

    private final Duration maxBudget;

    /**
     * Creates the interceptor.
     *
     * @param maxBudget the most a caller's deadline may grant
     * @param currentSpanTraceId the tracer's current trace id, or {@code null}
     */
    public TraceContextServerInterceptor(Duration maxBudget, @Nullable Supplier<@Nullable String> currentSpanTraceId) {
        this.traceIds = new InboundTraceContext(null, null, currentSpanTraceId, false);
        this.maxBudget = maxBudget;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        TraceContext context = read(headers);
        if (context.isExpired()) {
            call.close(Status.DEADLINE_EXCEEDED.withDescription("The caller's deadline had passed before the call ran"),
                    new Metadata());
            return new ServerCall.Listener<>() { };
        }
        InboundCall inbound = new InboundCall(headers);
        Context callContext = inbound.attachTo(Context.current());
        ServerCall<Q, R> answering = new AnsweringCall<>(call, inbound);
        ServerCall.Listener<Q> listener;
        Context previous = callContext.attach();
        try (TraceScope scope = TraceContextHolder.open(context)) {
            listener = next.startCall(answering, headers);
        } finally {
            callContext.detach(previous);
        }
        return new ScopedListener<>(listener, context, callContext, answering);
    }

    private TraceContext read(Metadata headers) {
        TraceContext context = traceIds.read(name -> GrpcMetadata.get(headers, name));
        io.grpc.Deadline deadline = Context.current().getDeadline();
        if (deadline == null) {
            return context;
        }
        long nanos = Math.max(0, deadline.timeRemaining(TimeUnit.NANOSECONDS));
        return context.withDeadline(Deadline.after(Duration.ofNanos(Math.min(nanos, maxBudget.toNanos()))));
    }

    /**
     * Answers the starter's failures given to {@code onError} with their status, and marks a
     * replayed answer in its headers.
     */
    private static final class AnsweringCall<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {

        private final InboundCall inbound;

        AnsweringCall(ServerCall<Q, R> call, InboundCall inbound) {
            super(call);
            this.inbound = inbound;
        }

        @Override
        public void sendHeaders(Metadata headers) {
            inbound.stampReplayed(headers);
            super.sendHeaders(headers);
        }

        @Override
        public void close(Status status, Metadata trailers) {
            Status mapped = status.getCode() == Status.Code.UNKNOWN && status.getCause() != null
                    ? GrpcStatuses.forError(status.getCause()) : null;
            super.close(mapped != null ? mapped : status, trailers);
        }
    }

    /** Opens the call's context around each callback, and answers a failure the handler throws. */
    private static final class ScopedListener<Q> extends ForwardingServerCallListener.SimpleForwardingServerCallListener<Q> {

        private final TraceContext context;

        private final Context callContext;

        private final ServerCall<Q, ?> call;

        ScopedListener(ServerCall.Listener<Q> delegate, TraceContext context, Context callContext,
                ServerCall<Q, ?> call) {
            super(delegate);
            this.context = context;
            this.callContext = callContext;
            this.call = call;
        }

        @Override
        public void onMessage(Q message) {
            Context previous = callContext.attach();
            try (TraceScope scope = TraceContextHolder.open(context)) {
                super.onMessage(message);
            } finally {
                callContext.detach(previous);
            }
        }

        @Override
        public void onHalfClose() {
            Context previous = callContext.attach();
            try (TraceScope scope = TraceContextHolder.open(context)) {
                super.onHalfClose();
            } catch (RuntimeException failure) {
                Status status = GrpcStatuses.forError(failure);
                if (status == null) {
                    throw failure;
                }
                call.close(status, new Metadata());
            } finally {
                callContext.detach(previous);
            }
        }

        @Override
        public void onCancel() {
            Context previous = callContext.attach();
            try (TraceScope scope = TraceContextHolder.open(context)) {
                super.onCancel();
            } finally {
                callContext.detach(previous);
            }
        }

        @Override
        public void onComplete() {
            Context previous = callContext.attach();
            try (TraceScope scope = TraceContextHolder.open(context)) {
                super.onComplete();
            } finally {
                callContext.detach(previous);
            }
        }

        @Override
        public void onReady() {
            Context previous = callContext.attach();
            try (TraceScope scope = TraceContextHolder.open(context)) {
                super.onReady();
            } finally {
                callContext.detach(previous);
            }
        }
    }
}
