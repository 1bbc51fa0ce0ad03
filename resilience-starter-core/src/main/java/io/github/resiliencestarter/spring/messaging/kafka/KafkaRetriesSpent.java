package io.github.resiliencestarter.spring.messaging.kafka;

import io.github.resiliencestarter.spring.messaging.FutileRedelivery;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The back-off of a Kafka error handler ({@code DefaultErrorHandler.setBackOffFunction}) that
 * hands a record whose failure no redelivery can change ({@link FutileRedelivery}: its retries
 * spent, or an effect whose outcome cannot be replayed) to the handler's recoverer at once:
 * redelivering it would run every attempt again, or meet the same record. Other failures keep the
 * handler's own back-off.
 */
public final class KafkaRetriesSpent {

    private static final BackOff NO_MORE_ATTEMPTS = new FixedBackOff(0, 0);

    private KafkaRetriesSpent() {
    }

    /**
     * The back-off function.
     *
     * @return no further delivery for a failure no redelivery can change, else {@code null} (the
     *     handler's own back-off)
     */
    public static BiFunction<ConsumerRecord<?, ?>, Exception, @Nullable BackOff> backOff() {
        return (record, failure) -> FutileRedelivery.reason(failure) != null ? NO_MORE_ATTEMPTS : null;
    }
}
