package io.github.resiliencestarter.autoconfigure.messaging;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.ConfigurationCondition;

/** Matches when a broker client the starter has adapters for is on the class path. */
class OnMessagingClientCondition extends AnyNestedCondition {

    /** Spring AMQP's template. */
    static final String RABBIT_TEMPLATE = "org.springframework.amqp.rabbit.core.RabbitTemplate";

    /** Spring for Apache Kafka's template. */
    static final String KAFKA_TEMPLATE = "org.springframework.kafka.core.KafkaTemplate";

    OnMessagingClientCondition() {
        super(ConfigurationCondition.ConfigurationPhase.PARSE_CONFIGURATION);
    }

    @ConditionalOnClass(name = RABBIT_TEMPLATE)
    static class Rabbit {
    }

    @ConditionalOnClass(name = KAFKA_TEMPLATE)
    static class Kafka {
    }
}
