package io.github.resiliencestarter.spring.messaging.kafka;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.spring.messaging.OutboundMessageHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.support.KafkaHeaders;

/**
 * Stamps each record a producer sends with the sender's trace id, and with its deadline (an
 * absolute expiry) when the record awaits a reply (it names a reply topic, as
 * {@code ReplyingKafkaTemplate} does) or goes to a topic named in {@link #DEADLINE_TOPICS_CONFIG}.
 * Kafka runs it on the sending thread, where the trace context is. Kafka logs and ignores what an
 * interceptor throws, so a request sent with the budget already spent is not refused here: it
 * carries its past expiry, and its consumer drops its first delivery. Named in the producer's
 * {@code interceptor.classes}.
 */
public class KafkaTraceProducerInterceptor implements ProducerInterceptor<Object, Object> {

    /** The producer setting naming topics whose records carry the deadline without awaiting a reply. */
    public static final String DEADLINE_TOPICS_CONFIG = "resilience.messaging.deadline-destinations";

    private OutboundMessageHeaders writer = OutboundMessageHeaders.REPLIES_ONLY;

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        Headers headers = record.headers();
        boolean awaitsReply = headers.lastHeader(KafkaHeaders.REPLY_TOPIC) != null;
        writer.stamp(TraceContextHolder.current(), writer.carriesDeadline(awaitsReply, record.topic()),
                name -> headers.lastHeader(name) != null,
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
        Object topics = configs.get(DEADLINE_TOPICS_CONFIG);
        if (topics instanceof String names) {
            writer = new OutboundMessageHeaders(Arrays.stream(names.split(",")).map(String::trim)
                    .filter(name -> !name.isEmpty()).toList());
        } else if (topics instanceof Collection<?> names) {
            writer = new OutboundMessageHeaders(names.stream().map(String::valueOf).toList());
        }
    }
}
