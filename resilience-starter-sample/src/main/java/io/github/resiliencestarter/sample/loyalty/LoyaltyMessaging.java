package io.github.resiliencestarter.sample.loyalty;

import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/** The queue of order-created events and its dead-letter queue, declared on the broker at the first connection. */
@Configuration(proxyBeanMethods = false)
@Profile("rabbit")
public class LoyaltyMessaging {

    /** Order-created events: the order number as the body and as the message id. */
    public static final String ORDER_CREATED = "order-created";

    /** Where the broker puts events whose listener gave up (its retries spent). */
    public static final String ORDER_CREATED_DEAD_LETTERS = "order-created.dlq";

    @Bean
    Declarables loyaltyQueues() {
        return new Declarables(
                QueueBuilder.durable(ORDER_CREATED).deadLetterExchange("")
                        .deadLetterRoutingKey(ORDER_CREATED_DEAD_LETTERS).build(),
                QueueBuilder.durable(ORDER_CREATED_DEAD_LETTERS).build());
    }
}
