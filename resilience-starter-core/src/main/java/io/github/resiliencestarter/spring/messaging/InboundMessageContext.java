package io.github.resiliencestarter.spring.messaging;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.messaging.MessageDeadline;
import io.github.resiliencestarter.messaging.MessageObserver;
import io.github.resiliencestarter.spring.web.InboundTraceContext;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a received message's trace context: the trace id as an HTTP request's (the same headers,
 * the same validation), the deadline from the absolute expiry the sender stamped, capped; a message
 * without one gets the default budget, if any. Only a message that carries an expiry says it may be
 * dropped (its sender awaited a reply, or asked for it), and only its first delivery is: a
 * redelivery runs whatever its expiry, without the spent deadline, since it may be the one that
 * completes an effect a crashed or failed delivery began. {@link #expired} reports a drop.
 */
public class InboundMessageContext {

    private static final Logger log = LoggerFactory.getLogger(InboundMessageContext.class);

    private final InboundTraceContext traceIds;

    private final Duration maxBudget;

    private final @Nullable Duration defaultBudget;

    private final MessageObserver observer;

    /**
     * Creates the reader.
     *
     * @param maxBudget the most a message's expiry may grant
     * @param defaultBudget the budget of a message that carries no expiry, or {@code null} for none
     * @param currentSpanTraceId the tracer's current trace id, or {@code null}
     * @param observer told of dropped messages
     */
    public InboundMessageContext(Duration maxBudget, @Nullable Duration defaultBudget,
            @Nullable Supplier<@Nullable String> currentSpanTraceId, MessageObserver observer) {
        if (maxBudget.isNegative() || maxBudget.isZero()) {
            throw new InvalidSettingException("maxBudget", "must be positive", maxBudget);
        }
        // budgets relative to a send are meaningless after a queue: only the trace id is read there
        this.traceIds = new InboundTraceContext(null, null, currentSpanTraceId, false);
        this.maxBudget = maxBudget;
        this.defaultBudget = defaultBudget;
        this.observer = observer;
    }

    /**
     * What to do with a delivery: the context to run it in, or a drop.
     *
     * @param header the message's header by name, {@code null} when absent
     * @param redelivered whether the broker delivered the message before (it is never dropped then)
     * @return its context, and whether it is dropped
     */
    public MessageDelivery read(Function<String, @Nullable String> header, boolean redelivered) {
        TraceContext context = traceIds.read(header);
        Duration remaining = MessageDeadline.remaining(header.apply(ResilienceHeaders.DEADLINE_EPOCH_MS),
                System.currentTimeMillis(), maxBudget);
        if (remaining != null && remaining.isZero()) {
            if (!redelivered) {
                return new MessageDelivery(context.withDeadline(Deadline.after(remaining)), true);
            }
            // nobody waits for it; the work it may finish is bounded as a message without an expiry is
            remaining = null;
        }
        if (remaining == null) {
            remaining = defaultBudget;
        }
        return new MessageDelivery(remaining == null ? context : context.withDeadline(Deadline.after(remaining)),
                false);
    }

    /**
     * Reports a message dropped because its deadline passed before it was consumed.
     *
     * @param destination the queue or topic
     * @param context the message's context
     */
    public void expired(String destination, TraceContext context) {
        log.info("Dropped a message from {} whose deadline had passed before its first delivery (traceId {}): "
                + "its sender no longer waits for its reply",
                destination, context.traceId());
        observer.onExpired(destination);
    }
}
