package io.github.resiliencestarter.sample.loyalty;

import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * Sends an order-created event. The message id is the order number, so an event sent again (a
 * client's retry of the create, a lost confirm) is the same message to the consumer. The starter
 * stamps the request's trace id on it, not its deadline: the event outlives the request, and its
 * points are awarded however late it is consumed.
 */
@Component
@Profile("rabbit")
public class OrderCreatedPublisher {

    private final RabbitTemplate rabbit;

    OrderCreatedPublisher(RabbitTemplate rabbit) {
        this.rabbit = rabbit;
    }

    /**
     * Sends the event of a created order.
     *
     * @param orderNo the order number
     */
    public void orderCreated(String orderNo) {
        rabbit.send(LoyaltyMessaging.ORDER_CREATED, MessageBuilder.withBody(orderNo.getBytes())
                .setContentType(MessageProperties.CONTENT_TYPE_TEXT_PLAIN).setMessageId(orderNo)
                .setDeliveryMode(MessageDeliveryMode.PERSISTENT).build());
    }
}
