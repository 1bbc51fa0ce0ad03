package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.context.BudgetMargin;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Bounds each outbound call by the caller's remaining budget, less a margin: its gRPC deadline
 * becomes the earlier of its own and the budget's, so the server sees it as {@code grpc-timeout}
 * and cancels the work when it passes. Sends the trace id and the attempt number as metadata. A
 * call with no budget beyond the margin left is not sent: it fails at once with
 * {@link DeadlineExceededException}, as an HTTP call does.
 */
public class DeadlineClientInterceptor implements ClientInterceptor {

    private final long marginNanos;

    /**
     * Creates the interceptor.
     *
     * @param margin time kept back from the budget a call may use
     */
    public DeadlineClientInterceptor(Duration margin) {
        this.marginNanos = BudgetMargin.checked(margin).toNanos();
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        TraceContext context = TraceContextHolder.current();
        CallOptions bounded = options;
        Deadline deadline = context.deadline();
        if (deadline != null) {
            long nanos = deadline.remainingNanos() - marginNanos;
            if (nanos <= 0) {
                throw DeadlineExceededException.budgetSpent(method.getFullMethodName());
            }
            io.grpc.Deadline budget = io.grpc.Deadline.after(nanos, TimeUnit.NANOSECONDS);
            if (options.getDeadline() == null || budget.isBefore(options.getDeadline())) {
                bounded = options.withDeadline(budget);
            }
        }
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, bounded)) {
            @Override
            public void start(Listener<R> listener, Metadata headers) {
                if (context.traceId() != null && !headers.containsKey(GrpcMetadata.TRACE_ID)) {
                    headers.put(GrpcMetadata.TRACE_ID, context.traceId());
                }
                if (context.attempt() > 0) {
                    headers.put(GrpcMetadata.RETRY_ATTEMPT, Integer.toString(context.attempt()));
                }
                super.start(listener, headers);
            }
        };
    }
}
