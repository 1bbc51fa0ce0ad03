package io.github.resiliencestarter.spring.messaging.kafka;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.spring.messaging.InboundMessageContext;
import io.github.resiliencestarter.spring.messaging.MessageDelivery;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * Runs each record's listener call in the trace context its headers carry: opened before the
 * listener, closed after it on the same consumer thread. The first delivery of a record whose
 * sender's deadline has passed is not given to the listener (counted and logged: the sender awaited
 * a reply and no longer does); the container commits its offset as for a record it processed. A
 * record the listener failed on comes back from the error handler's seek as a redelivery, which
 * always runs: Kafka marks no redelivery, so the interceptor remembers the records that failed on
 * its consumer thread.
 */
public class KafkaListenerContextInterceptor implements RecordInterceptor<Object, Object> {

    private final InboundMessageContext inbound;

    /** Failed records a consumer thread remembers: more than an error handler's seek brings back at once. */
    private static final int REMEMBERED_FAILURES = 256;

    /** The scope of the record being processed on this consumer thread. */
    private final ThreadLocal<@Nullable TraceScope> scopes = new ThreadLocal<>();

    /** The records the listener failed on, per consumer thread, oldest first. */
    private final ThreadLocal<Set<String>> failed = ThreadLocal.withInitial(() -> Collections.newSetFromMap(
            new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > REMEMBERED_FAILURES;
                }
            }));

    /**
     * Creates the interceptor.
     *
     * @param inbound reads a record's context
     */
    public KafkaListenerContextInterceptor(InboundMessageContext inbound) {
        this.inbound = inbound;
    }

    @Override
    public @Nullable ConsumerRecord<Object, Object> intercept(ConsumerRecord<Object, Object> record,
            Consumer<Object, Object> consumer) {
        MessageDelivery delivery = inbound.read(name -> {
            Header header = record.headers().lastHeader(name);
            return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
        }, failed.get().remove(coordinates(record)));
        if (delivery.dropped()) {
            inbound.expired(record.topic(), delivery.context());
            return null;
        }
        scopes.set(TraceContextHolder.open(delivery.context()));
        return record;
    }

    @Override
    public void failure(ConsumerRecord<Object, Object> record, Exception exception, Consumer<Object, Object> consumer) {
        failed.get().add(coordinates(record));
    }

    private static String coordinates(ConsumerRecord<?, ?> record) {
        return record.topic() + '\n' + record.partition() + '\n' + record.offset();
    }

    @Override
    public void afterRecord(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
        TraceScope scope = scopes.get();
        if (scope != null) {
            scopes.remove();
            scope.close();
        }
    }
}
