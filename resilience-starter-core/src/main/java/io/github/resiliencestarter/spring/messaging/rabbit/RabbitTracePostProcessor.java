package io.github.resiliencestarter.spring.messaging.rabbit;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.spring.messaging.OutboundMessageHeaders;
import org.jspecify.annotations.Nullable;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.Correlation;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessagePostProcessor;
import org.springframework.amqp.core.MessageProperties;

/**
 * Stamps each published message with the sender's trace id, and with its deadline (an absolute
 * expiry) when the message awaits a reply ({@code replyTo} set, as {@code sendAndReceive} does) or
 * goes to a destination named for it; refuses such a message when the budget is already spent.
 * Added to every {@code RabbitTemplate} as a before-publish post-processor.
 */
public class RabbitTracePostProcessor implements MessagePostProcessor {

    private final OutboundMessageHeaders headers;

    /** Creates the post-processor with the default: a deadline on requests awaiting a reply only. */
    public RabbitTracePostProcessor() {
        this(OutboundMessageHeaders.REPLIES_ONLY);
    }

    /**
     * Creates the post-processor.
     *
     * @param headers decides which messages carry the deadline, and writes the headers
     */
    public RabbitTracePostProcessor(OutboundMessageHeaders headers) {
        this.headers = headers;
    }

    @Override
    public Message postProcessMessage(Message message) throws AmqpException {
        return postProcessMessage(message, null, null, null);
    }

    @Override
    public Message postProcessMessage(Message message, @Nullable Correlation correlation, @Nullable String exchange,
            @Nullable String routingKey) {
        MessageProperties properties = message.getMessageProperties();
        boolean awaitsReply = properties.getReplyTo() != null;
        headers.apply(TraceContextHolder.current(), "RabbitMQ", headers.carriesDeadline(awaitsReply, exchange,
                routingKey), name -> properties.getHeaders().containsKey(name), properties::setHeader);
        return message;
    }
}
