package io.github.resiliencestarter.spring.idempotent;

import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * The content of a message envelope a listener may take as a parameter: a Spring
 * {@code Message}'s payload, a raw AMQP message's body, a Kafka record's value. Its headers and delivery properties (a
 * delivery tag, the redelivered flag, timestamps) change between deliveries of the same message,
 * so a redelivery must not look like another payload under the same key. Each broker's types are
 * touched only when its library is present.
 */
final class MessageEnvelopes {

    private static final ClassLoader LOADER = MessageEnvelopes.class.getClassLoader();

    private static final boolean SPRING_MESSAGING = ClassUtils.isPresent("org.springframework.messaging.Message",
            LOADER);

    private static final boolean AMQP = ClassUtils.isPresent("org.springframework.amqp.core.Message", LOADER);

    private static final boolean KAFKA = ClassUtils.isPresent("org.apache.kafka.clients.consumer.ConsumerRecord",
            LOADER);

    private MessageEnvelopes() {
    }

    /**
     * What of an argument of {@code type} is its content.
     *
     * @param type the parameter's type
     * @return the accessor, or {@code null} when the type is no envelope
     */
    static @Nullable UnaryOperator<@Nullable Object> contentOf(Class<?> type) {
        if (SPRING_MESSAGING && SpringMessages.is(type)) {
            return SpringMessages::payload;
        }
        if (AMQP && AmqpMessages.is(type)) {
            return AmqpMessages::body;
        }
        if (KAFKA && KafkaRecords.is(type)) {
            return KafkaRecords::value;
        }
        return null;
    }

    /** Loaded only with spring-messaging present. */
    private static final class SpringMessages {

        static boolean is(Class<?> type) {
            return org.springframework.messaging.Message.class.isAssignableFrom(type);
        }

        static @Nullable Object payload(@Nullable Object message) {
            return message == null ? null : ((org.springframework.messaging.Message<?>) message).getPayload();
        }
    }

    /** Loaded only with Spring AMQP present. */
    private static final class AmqpMessages {

        static boolean is(Class<?> type) {
            return org.springframework.amqp.core.Message.class.isAssignableFrom(type);
        }

        static @Nullable Object body(@Nullable Object message) {
            return message == null ? null : ((org.springframework.amqp.core.Message) message).getBody();
        }
    }

    /** Loaded only with the Kafka client present. */
    private static final class KafkaRecords {

        static boolean is(Class<?> type) {
            return org.apache.kafka.clients.consumer.ConsumerRecord.class.isAssignableFrom(type);
        }

        static @Nullable Object value(@Nullable Object record) {
            return record == null ? null : ((org.apache.kafka.clients.consumer.ConsumerRecord<?, ?>) record).value();
        }
    }
}
