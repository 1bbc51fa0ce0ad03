package io.github.resiliencestarter.spring.messaging;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.messaging.MessageDeadline;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.util.Collection;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * What every message sender adapter writes: the trace id always; the deadline, as an absolute
 * expiry, only where someone waits for the message's outcome. That is a request whose sender awaits
 * a reply, or a destination the application named. A fire-and-forget event outlives the request
 * that sent it: it carries no deadline, is never refused for one, and its consumer never drops it
 * (a committed order's event must not be lost because the order's request was slow).
 */
public final class OutboundMessageHeaders {

    /** The default: a deadline only on requests that await a reply. */
    public static final OutboundMessageHeaders REPLIES_ONLY = new OutboundMessageHeaders(Set.of());

    private final Set<String> deadlineDestinations;

    /**
     * Creates the writer.
     *
     * @param deadlineDestinations destinations (queue, exchange, routing key or topic names) whose
     *     messages carry the sender's deadline even when no reply is awaited
     */
    public OutboundMessageHeaders(Collection<String> deadlineDestinations) {
        this.deadlineDestinations = Set.copyOf(deadlineDestinations);
    }

    /**
     * Whether a message carries its sender's deadline.
     *
     * @param awaitsReply whether the sender waits for a reply to it
     * @param destinations the names it is sent to (an exchange and a routing key, a topic)
     * @return {@code true} for a request awaiting its reply or a message to a named destination
     */
    public boolean carriesDeadline(boolean awaitsReply, @Nullable String... destinations) {
        if (awaitsReply) {
            return true;
        }
        for (String destination : destinations) {
            if (destination != null && deadlineDestinations.contains(destination)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Writes the headers; refuses a message that would carry a spent deadline, as an HTTP call is
     * refused: its reply would come to nobody.
     *
     * @param context the sender's trace context
     * @param client names the target in the error, for example {@code RabbitMQ}
     * @param carriesDeadline whether the message carries the deadline ({@link #carriesDeadline})
     * @param hasHeader tells whether the message already carries a header (the sender's own wins)
     * @param setHeader sets a header
     * @throws DeadlineExceededException when the message carries a deadline already spent; nothing is sent then
     */
    public void apply(TraceContext context, String client, boolean carriesDeadline, Predicate<String> hasHeader,
            BiConsumer<String, String> setHeader) {
        Deadline deadline = context.deadline();
        if (carriesDeadline && deadline != null && deadline.isExpired()) {
            throw DeadlineExceededException.budgetSpent("send to " + client);
        }
        stamp(context, carriesDeadline, hasHeader, setHeader);
    }

    /**
     * Writes the headers, a spent deadline included (for a client that cannot refuse a send, such
     * as a Kafka producer interceptor: the consumer then drops the message's first delivery).
     *
     * @param context the sender's trace context
     * @param carriesDeadline whether the message carries the deadline ({@link #carriesDeadline})
     * @param hasHeader tells whether the message already carries a header (the sender's own wins)
     * @param setHeader sets a header
     */
    public void stamp(TraceContext context, boolean carriesDeadline, Predicate<String> hasHeader,
            BiConsumer<String, String> setHeader) {
        if (context.traceId() != null && !hasHeader.test(ResilienceHeaders.TRACE_ID)) {
            setHeader.accept(ResilienceHeaders.TRACE_ID, context.traceId());
        }
        if (!carriesDeadline) {
            return;
        }
        String expiry = MessageDeadline.expiryOf(context.deadline(), System.currentTimeMillis());
        if (expiry != null && !hasHeader.test(ResilienceHeaders.DEADLINE_EPOCH_MS)) {
            setHeader.accept(ResilienceHeaders.DEADLINE_EPOCH_MS, expiry);
        }
    }
}
