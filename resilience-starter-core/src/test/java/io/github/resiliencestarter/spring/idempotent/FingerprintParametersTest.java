package io.github.resiliencestarter.spring.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.StringValue;
import com.rabbitmq.client.Channel;
import io.grpc.stub.StreamObserver;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.kafka.support.Acknowledgment;
import org.springframework.messaging.Message;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.support.GenericMessage;
import org.springframework.util.ReflectionUtils;

/**
 * What of a listener's arguments the default fingerprint covers: a message envelope by its
 * content, never what changes between deliveries of one message (headers, delivery tag, offset,
 * the channel or acknowledgment handle).
 */
class FingerprintParametersTest {

    @SuppressWarnings("unused")
    static class Listeners {

        void spring(Message<String> message, @Header("amqp_deliveryTag") long tag) {
        }

        void amqp(org.springframework.amqp.core.Message message, Channel channel) {
        }

        void kafka(ConsumerRecord<String, String> record, Acknowledgment ack) {
        }

        void payload(String payload, @Header("kafka_offset") long offset) {
        }

        void grpc(StringValue request, StreamObserver<StringValue> answer) {
        }
    }

    private static FingerprintParameters of(String name) {
        Method method = ReflectionUtils.findMethod(Listeners.class, name, (Class<?>[]) null);
        return FingerprintParameters.of(method);
    }

    @Test
    void aSpringMessageCountsByItsPayloadAndAHeaderParameterNotAtAll() {
        assertThat(of("spring").select(new Object[] {new GenericMessage<>("order 7"), 41L})).containsExactly("order 7");
    }

    @Test
    void anAmqpMessageCountsByItsBodyAndTheChannelNotAtAll() {
        org.springframework.amqp.core.Message message = MessageBuilder.withBody("order 7".getBytes(StandardCharsets.UTF_8))
                .setDeliveryTag(41L).setRedelivered(true).build();
        assertThat(of("amqp").select(new Object[] {message, null})).singleElement()
                .isEqualTo("order 7".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aKafkaRecordCountsByItsValueAndTheAcknowledgmentNotAtAll() {
        ConsumerRecord<String, String> record = new ConsumerRecord<>("payments", 0, 1234, "key-7", "order 7");
        assertThat(of("kafka").select(new Object[] {record, null})).containsExactly("order 7");
    }

    @Test
    void aPlainPayloadCountsAsItIs() {
        assertThat(of("payload").select(new Object[] {"order 7", 99L})).containsExactly("order 7");
    }

    @Test
    void aProtobufRequestCountsByItsWireBytesAndTheObserverNotAtAll() {
        StringValue request = StringValue.of("order 7");

        assertThat(of("grpc").select(new Object[] {request, null})).singleElement()
                .isEqualTo(request.toByteArray());
    }
}
