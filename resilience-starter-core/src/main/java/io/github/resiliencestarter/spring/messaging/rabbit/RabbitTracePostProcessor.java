package io.github.resiliencestarter.spring.messaging.rabbit;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.spring.messaging.OutboundMessageHeaders;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessagePostProcessor;
import org.springframework.amqp.core.MessageProperties;

/**
 * Stamps each published message with the sender's trace id and deadline (as an absolute expiry),
 * and refuses to publish when the sender's budget is spent. Added to every {@code RabbitTemplate}
 * as a before-publish post-processor.
 */
public class RabbitTracePostProcessor implements MessagePostProcessor {

    @Override
    public Message postProcessMessage(Message message) throws AmqpException {
        MessageProperties properties = message.getMessageProperties();
        OutboundMessageHeaders.apply(TraceContextHolder.current(), "RabbitMQ",
                name -> properties.getHeaders().containsKey(name), properties::setHeader);
        return message;
    }
}
