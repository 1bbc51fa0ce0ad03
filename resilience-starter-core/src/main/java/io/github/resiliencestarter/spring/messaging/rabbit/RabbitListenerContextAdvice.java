package io.github.resiliencestarter.spring.messaging.rabbit;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.spring.messaging.FutileRedelivery;
import io.github.resiliencestarter.spring.messaging.InboundMessageContext;
import io.github.resiliencestarter.spring.messaging.MessageDelivery;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;

/**
 * Runs each delivery of a listener container in the trace context its headers carry. The first
 * delivery of a message whose sender's deadline has passed is acknowledged without running the
 * listener (counted and logged: the sender awaited a reply and no longer does); a redelivery always
 * runs ({@link InboundMessageContext}). A failure no redelivery can change ({@link FutileRedelivery}: its
 * retries spent, or an effect whose outcome cannot be replayed) is rejected without requeueing, so
 * the broker dead-letters it (to the queue's dead-letter exchange, if it has one) instead of
 * redelivering it in a loop; other failures are left to the container's own requeue setting. A batch of deliveries runs as it would without the
 * starter.
 */
public class RabbitListenerContextAdvice implements MethodInterceptor {

    private final InboundMessageContext inbound;

    /**
     * Creates the advice.
     *
     * @param inbound reads a delivery's context
     */
    public RabbitListenerContextAdvice(InboundMessageContext inbound) {
        this.inbound = inbound;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        // the container's listener call: invokeListener(Channel channel, Object data)
        Object[] arguments = invocation.getArguments();
        if (arguments.length < 2 || !(arguments[1] instanceof Message message)) {
            return invocation.proceed();
        }
        MessageProperties properties = message.getMessageProperties();
        MessageDelivery delivery = inbound.read(name -> {
            Object value = properties.getHeaders().get(name);
            return value == null ? null : value.toString();
        }, Boolean.TRUE.equals(properties.getRedelivered()));
        if (delivery.dropped()) {
            inbound.expired(String.valueOf(properties.getConsumerQueue()), delivery.context());
            return null;
        }
        try (TraceScope scope = TraceContextHolder.open(delivery.context())) {
            return invocation.proceed();
        } catch (Throwable failure) {
            String futile = FutileRedelivery.reason(failure);
            if (futile != null) {
                throw new AmqpRejectAndDontRequeueException("Dead-lettered, not requeued: " + futile, failure);
            }
            throw failure;
        }
    }
}
