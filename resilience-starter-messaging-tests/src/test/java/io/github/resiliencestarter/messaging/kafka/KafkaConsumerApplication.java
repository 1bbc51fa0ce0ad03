package io.github.resiliencestarter.messaging.kafka;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.spring.messaging.kafka.KafkaRetriesSpent;
import io.github.resiliencestarter.testsupport.Eventually;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * A Kafka consumer as an application writes one: {@code @KafkaListener} methods, {@code @Idempotent}
 * keyed by the record key, the effect written in the listener's database transaction into a table
 * without a unique key; failed records go to a dead-letter topic.
 */
@SpringBootApplication
public class KafkaConsumerApplication {

    /** Each record's effect runs once per key here. */
    public static final String PAYMENTS = "k-payments";

    /** Its listener fails with a transient error every time, under {@code @Retry(maxAttempts = 2)}. */
    public static final String FLAKY = "k-flaky";

    /** Where the error handler publishes what {@link #FLAKY} gave up on. */
    public static final String FLAKY_DEAD_LETTERS = FLAKY + "-dlt";

    /** Its listener reports the trace context it runs in. */
    public static final String TRACED = "k-traced";

    /** Each record's effect runs once per key; a record may be held on its first delivery, then fail. */
    public static final String EVENTS = "k-events";

    /** Its listener container starts only when a test starts it: a backlog, or a consumer down for a while. */
    public static final String BACKLOG = "k-backlog";

    /**
     * Dead-letter publishing, as documented: the application's own handler, told to send a record
     * whose retries are spent to the dead-letter topic at once.
     *
     * @param template publishes the dead letters
     * @return the error handler
     */
    @Bean
    DefaultErrorHandler errorHandler(KafkaTemplate<Object, Object> template) {
        DefaultErrorHandler handler = new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template));
        handler.setBackOffFunction(KafkaRetriesSpent.backOff());
        return handler;
    }

    /** What the listeners saw, apart from them: the listeners' bean is a proxy. */
    @Component
    public static class Deliveries {

        /** Every call of the payments listener's method. */
        public final AtomicInteger paymentRuns = new AtomicInteger();

        /** Calls of the flaky listener's method, attempts included. */
        public final AtomicInteger flakyAttempts = new AtomicInteger();

        /** The context each traced record ran in. */
        public final BlockingQueue<TraceContext> traced = new LinkedBlockingQueue<>();

        /** Values whose first delivery waits for its latch, then fails. */
        public final Map<String, CountDownLatch> failOnceAfter = new ConcurrentHashMap<>();
    }

    /** The listeners. */
    @Component
    public static class Listeners {

        private final JdbcTemplate jdbc;

        private final Deliveries seen;

        Listeners(JdbcTemplate jdbc, Deliveries seen) {
            this.jdbc = jdbc;
            this.seen = seen;
        }

        /**
         * Records one effect per key: the whole record taken, its offset differing between copies.
         *
         * @param record the record
         */
        @KafkaListener(topics = PAYMENTS, groupId = "payments")
        @Idempotent(name = "K_PAYMENT", key = "#record.key()")
        @Transactional
        public void onPayment(ConsumerRecord<String, String> record) {
            seen.paymentRuns.incrementAndGet();
            jdbc.update("INSERT INTO message_effect (message_id, payload) VALUES (?, ?)", record.key(), record.value());
        }

        /**
         * Fails with a transient error every time.
         *
         * @param value the record's value
         * @param key the record's key
         */
        @KafkaListener(topics = FLAKY, groupId = "flaky")
        @Idempotent(name = "K_FLAKY", key = "#key")
        @Retry(maxAttempts = 2)
        public void onFlaky(String value, @Header(KafkaHeaders.RECEIVED_KEY) String key) {
            seen.flakyAttempts.incrementAndGet();
            throw new RetryableException("downstream-busy", "the downstream is busy");
        }

        /**
         * Reports its context.
         *
         * @param value the record's value
         */
        @KafkaListener(topics = TRACED, groupId = "traced")
        public void onTraced(String value) {
            seen.traced.add(TraceContextHolder.current());
        }

        /**
         * Records one effect per key; a held first delivery fails once its latch opens.
         *
         * @param record the record
         */
        @KafkaListener(topics = EVENTS, groupId = "events")
        @Idempotent(name = "K_EVENT", key = "#record.key()")
        @Transactional
        public void onEvent(ConsumerRecord<String, String> record) {
            seen.traced.add(TraceContextHolder.current());
            jdbc.update("INSERT INTO message_effect (message_id, payload) VALUES (?, ?)", record.key(), record.value());
            CountDownLatch release = seen.failOnceAfter.remove(record.value());
            if (release != null) {
                try {
                    release.await(Eventually.GENEROUSLY.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("the first delivery of " + record.value() + " fails late");
            }
        }

        /**
         * Records one effect per key, once a test starts its container (from the topic's start).
         *
         * @param record the record
         */
        @KafkaListener(id = BACKLOG, topics = BACKLOG, groupId = "backlog", autoStartup = "false",
                properties = "auto.offset.reset=earliest")
        @Idempotent(name = "K_BACKLOG", key = "#record.key()")
        @Transactional
        public void onBacklog(ConsumerRecord<String, String> record) {
            jdbc.update("INSERT INTO message_effect (message_id, payload) VALUES (?, ?)", record.key(), record.value());
        }
    }
}
