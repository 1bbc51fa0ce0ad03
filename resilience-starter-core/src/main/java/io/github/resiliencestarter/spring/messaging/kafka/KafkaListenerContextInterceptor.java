package io.github.resiliencestarter.spring.messaging.kafka;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.spring.messaging.InboundMessageContext;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * Runs each record's listener call in the trace context its headers carry: opened before the
 * listener, closed after it on the same consumer thread. A record whose deadline has passed is
 * not given to the listener (counted and logged: nobody waits for its effect); the container
 * commits its offset as for a record it processed.
 */
public class KafkaListenerContextInterceptor implements RecordInterceptor<Object, Object> {

    private final InboundMessageContext inbound;

    /** The scope of the record being processed on this consumer thread. */
    private final ThreadLocal<@Nullable TraceScope> scopes = new ThreadLocal<>();

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
        TraceContext context = inbound.read(name -> {
            Header header = record.headers().lastHeader(name);
            return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
        });
        if (context.isExpired()) {
            inbound.expired(record.topic(), context);
            return null;
        }
        scopes.set(TraceContextHolder.open(context));
        return record;
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
