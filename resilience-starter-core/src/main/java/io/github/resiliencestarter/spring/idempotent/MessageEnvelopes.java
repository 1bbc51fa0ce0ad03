package io.github.resiliencestarter.spring.idempotent;

import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * The content of a message envelope a listener may take as a parameter: a Spring
 * {@code Message}'s payload, a raw AMQP message's body, a Kafka record's value. Its headers and delivery properties (a
 * delivery tag, the redelivered flag, timestamps) change between deliveries of the same message,
 * so a redelivery must not look like another payload under the same key. A protobuf message (a
 * gRPC request) counts by its wire bytes: its generated accessors are no bean a JSON writer could
 * walk. Each library's types are touched only when it is present.
 */
final class MessageEnvelopes {

    private static final ClassLoader LOADER = MessageEnvelopes.class.getClassLoader();

    private static final boolean SPRING_MESSAGING = ClassUtils.isPresent("org.springframework.messaging.Message",
            LOADER);

    private static final boolean AMQP = ClassUtils.isPresent("org.springframework.amqp.core.Message", LOADER);

    private static final boolean KAFKA = ClassUtils.isPresent("org.apache.kafka.clients.consumer.ConsumerRecord",
            LOADER);

    private static final boolean PROTOBUF = ClassUtils.isPresent("com.google.protobuf.MessageLite", LOADER);

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
        if (PROTOBUF && ProtobufMessages.is(type)) {
            return ProtobufMessages::bytes;
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

    /** Loaded only with protobuf-java present. */
    private static final class ProtobufMessages {

        static boolean is(Class<?> type) {
            return com.google.protobuf.MessageLite.class.isAssignableFrom(type);
        }

        /** Deterministic: the same message gives the same bytes, map fields included. */
        static @Nullable Object bytes(@Nullable Object message) {
            if (message == null) {
                return null;
            }
            com.google.protobuf.MessageLite protobuf = (com.google.protobuf.MessageLite) message;
            byte[] bytes = new byte[protobuf.getSerializedSize()];
            com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(bytes);
            out.useDeterministicSerialization();
            try {
                protobuf.writeTo(out);
            } catch (java.io.IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
            return bytes;
        }
    }
}
