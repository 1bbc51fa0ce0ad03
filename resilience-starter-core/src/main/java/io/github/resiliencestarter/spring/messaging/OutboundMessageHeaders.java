package io.github.resiliencestarter.spring.messaging;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.messaging.MessageDeadline;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * What every message sender adapter writes: the trace id and the deadline as an absolute expiry.
 * A sender that can refuse a send refuses it when the budget is already spent, as an HTTP call is
 * refused: its consumer would only drop it.
 */
public final class OutboundMessageHeaders {

    private OutboundMessageHeaders() {
    }

    /**
     * Refuses a send whose budget is spent, else writes the headers.
     *
     * @param context the sender's trace context
     * @param destination names the target in the error, for example {@code RabbitMQ}
     * @param hasHeader tells whether the message already carries a header (the sender's own wins)
     * @param setHeader sets a header
     * @throws DeadlineExceededException when the sender's budget is spent; nothing is sent then
     */
    public static void apply(TraceContext context, String destination, Predicate<String> hasHeader,
            BiConsumer<String, String> setHeader) {
        Deadline deadline = context.deadline();
        if (deadline != null && deadline.isExpired()) {
            throw DeadlineExceededException.budgetSpent("send to " + destination);
        }
        stamp(context, hasHeader, setHeader);
    }

    /**
     * Writes the headers, a spent deadline included (for a client that cannot refuse a send, such
     * as a Kafka producer interceptor: the consumer then drops the message).
     *
     * @param context the sender's trace context
     * @param hasHeader tells whether the message already carries a header (the sender's own wins)
     * @param setHeader sets a header
     */
    public static void stamp(TraceContext context, Predicate<String> hasHeader, BiConsumer<String, String> setHeader) {
        if (context.traceId() != null && !hasHeader.test(ResilienceHeaders.TRACE_ID)) {
            setHeader.accept(ResilienceHeaders.TRACE_ID, context.traceId());
        }
        String expiry = MessageDeadline.expiryOf(context.deadline(), System.currentTimeMillis());
        if (expiry != null && !hasHeader.test(ResilienceHeaders.DEADLINE_EPOCH_MS)) {
            setHeader.accept(ResilienceHeaders.DEADLINE_EPOCH_MS, expiry);
        }
    }
}
