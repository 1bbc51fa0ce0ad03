package io.github.resiliencestarter.messaging.rabbit;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.testsupport.Eventually;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * A consumer as an application writes one: {@code @RabbitListener} methods, {@code @Idempotent}
 * keyed by the message id, the effect written in the listener's database transaction into a
 * table without a unique key (so a second effect would show).
 */
@SpringBootApplication
public class RabbitConsumerApplication {

    /** Each delivery's effect runs once per key here. */
    public static final String PAYMENTS = "payments";

    /** Its listener fails with a transient error every time, under {@code @Retry(maxAttempts = 2)}. */
    public static final String FLAKY = "flaky";

    /** Where the broker dead-letters what {@link #FLAKY} rejects. */
    public static final String FLAKY_DEAD_LETTERS = "flaky.dlq";

    /** Each delivery's effect runs once per key; a failure no redelivery can change is dead-lettered. */
    public static final String RECEIPTS = "receipts";

    /** Where the broker dead-letters what {@link #RECEIPTS} rejects. */
    public static final String RECEIPT_DEAD_LETTERS = "receipts.dlq";

    /** Its listener reports the trace context it runs in. */
    public static final String TRACED = "traced";

    /** Its listener answers each request with the deadline it runs under. */
    public static final String REQUESTS = "requests";

    /** Its listener container starts only when a test starts it: a backlog, or a consumer down for a while. */
    public static final String BACKLOG = "backlog";

    /**
     * The queues, declared on the broker when the first connection opens.
     *
     * @return the declarations
     */
    @Bean
    Declarables queues() {
        Queue flaky = QueueBuilder.nonDurable(FLAKY).deadLetterExchange("").deadLetterRoutingKey(FLAKY_DEAD_LETTERS)
                .build();
        Queue receipts = QueueBuilder.nonDurable(RECEIPTS).deadLetterExchange("")
                .deadLetterRoutingKey(RECEIPT_DEAD_LETTERS).build();
        return new Declarables(QueueBuilder.nonDurable(PAYMENTS).build(), flaky,
                QueueBuilder.nonDurable(FLAKY_DEAD_LETTERS).build(), receipts,
                QueueBuilder.nonDurable(RECEIPT_DEAD_LETTERS).build(), QueueBuilder.nonDurable(TRACED).build(),
                QueueBuilder.nonDurable(REQUESTS).build(), QueueBuilder.nonDurable(BACKLOG).build());
    }

    /** What the listeners saw, apart from them: the listeners' bean is a proxy. */
    @Component
    public static class Deliveries {

        /** Payloads whose first delivery fails (then their redelivery runs). */
        public final Set<String> failOnce = ConcurrentHashMap.newKeySet();

        /** Payloads whose first delivery waits for its latch, then fails. */
        public final Map<String, CountDownLatch> failOnceAfter = new ConcurrentHashMap<>();

        /** Deliveries the flaky listener's method saw, attempts included. */
        public final AtomicInteger flakyAttempts = new AtomicInteger();

        /** The context each traced delivery ran in. */
        public final BlockingQueue<TraceContext> traced = new LinkedBlockingQueue<>();

        /** Every delivery to the receipts listener's method. */
        public final AtomicInteger receiptRuns = new AtomicInteger();

        /** Every delivery to the payments listener's method. */
        public final AtomicInteger paymentRuns = new AtomicInteger();
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
         * Records one effect per message: the whole Spring message taken, its headers (delivery
         * tag, redelivered flag) differing between deliveries of the same message.
         *
         * @param message the delivery
         */
        @RabbitListener(queues = PAYMENTS)
        @Idempotent(name = "PAYMENT", key = "#message.headers['amqp_messageId']")
        @Transactional
        public void onPayment(org.springframework.messaging.Message<String> message) {
            seen.paymentRuns.incrementAndGet();
            seen.traced.add(TraceContextHolder.current());
            jdbc.update("INSERT INTO message_effect (message_id, payload) VALUES (?, ?)",
                    message.getHeaders().get("amqp_messageId"), message.getPayload());
            if (seen.failOnce.remove(message.getPayload())) {
                throw new IllegalStateException("the first delivery of " + message.getPayload() + " fails");
            }
            CountDownLatch release = seen.failOnceAfter.remove(message.getPayload());
            if (release != null) {
                try {
                    release.await(Eventually.GENEROUSLY.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("the first delivery of " + message.getPayload() + " fails late");
            }
        }

        /**
         * Fails with a transient error every time.
         *
         * @param message the raw delivery
         */
        @RabbitListener(queues = FLAKY)
        @Idempotent(name = "FLAKY", key = "#message.messageProperties.messageId")
        @Retry(maxAttempts = 2)
        public void onFlaky(Message message) {
            seen.flakyAttempts.incrementAndGet();
            throw new RetryableException("downstream-busy", "the downstream is busy");
        }

        /**
         * Records one effect per message id.
         *
         * @param message the raw delivery
         */
        @RabbitListener(queues = RECEIPTS)
        @Idempotent(name = "RECEIPT", key = "#message.messageProperties.messageId")
        @Transactional
        public void onReceipt(Message message) {
            seen.receiptRuns.incrementAndGet();
            jdbc.update("INSERT INTO message_effect (message_id, payload) VALUES (?, ?)",
                    message.getMessageProperties().getMessageId(), new String(message.getBody()));
        }

        /**
         * Reports its context.
         *
         * @param payload the payload
         */
        @RabbitListener(queues = TRACED)
        public void onTraced(String payload) {
            seen.traced.add(TraceContextHolder.current());
        }

        /**
         * Answers a request with what is left of the deadline it runs under.
         *
         * @param payload the request
         * @return the remaining milliseconds, or {@code none}
         */
        @RabbitListener(queues = REQUESTS)
        public String onRequest(String payload) {
            seen.traced.add(TraceContextHolder.current());
            Deadline deadline = TraceContextHolder.current().deadline();
            return deadline == null ? "none" : Long.toString(deadline.remainingMillis());
        }

        /**
         * Records one effect per message id, once a test starts its container.
         *
         * @param message the raw delivery
         */
        @RabbitListener(id = BACKLOG, queues = BACKLOG, autoStartup = "false")
        @Idempotent(name = "BACKLOG", key = "#message.messageProperties.messageId")
        @Transactional
        public void onBacklog(Message message) {
            seen.traced.add(TraceContextHolder.current());
            jdbc.update("INSERT INTO message_effect (message_id, payload) VALUES (?, ?)",
                    message.getMessageProperties().getMessageId(), new String(message.getBody()));
        }
    }
}
