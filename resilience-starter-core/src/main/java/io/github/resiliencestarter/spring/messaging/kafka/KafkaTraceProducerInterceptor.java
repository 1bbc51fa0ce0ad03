package io.github.resiliencestarter.spring.messaging.kafka;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.spring.messaging.OutboundMessageHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * Stamps each record a producer sends with the sender's trace id and deadline (an absolute
 * expiry). Kafka runs it on the sending thread, where the trace context is. Kafka logs and ignores
 * what an interceptor throws, so a record sent with the budget already spent is not refused here:
 * it carries its past expiry, and its consumer drops it. Named in the producer's
 * {@code interceptor.classes}.
 */
public class KafkaTraceProducerInterceptor implements ProducerInterceptor<Object, Object> {

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        Headers headers = record.headers();
        OutboundMessageHeaders.stamp(TraceContextHolder.current(), name -> headers.lastHeader(name) != null,
                (name, value) -> headers.add(name, value.getBytes(StandardCharsets.UTF_8)));
        return record;
    }

    @Override
    public void onAcknowledgement(@Nullable RecordMetadata metadata, @Nullable Exception exception) {
        // nothing to do with an acknowledgement
    }

    @Override
    public void close() {
        // holds nothing
    }

    @Override
    public void configure(Map<String, ?> configs) {
        // no settings
    }
}
