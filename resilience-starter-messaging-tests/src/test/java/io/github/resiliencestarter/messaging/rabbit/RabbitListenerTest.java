package io.github.resiliencestarter.messaging.rabbit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.micrometer.ResilienceMetrics;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.Lifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code @Idempotent}, {@code @Retry} and the deadline on {@code @RabbitListener} methods, on a real
 * RabbitMQ broker and the JDBC store on MariaDB: a message delivered again after its effect
 * committed is acknowledged without a second effect; a failed delivery releases its key and its
 * redelivery runs; a consumer whose retries are spent, or whose message's key another payload
 * completed, dead-letters the message instead of looping;
 * the trace id crosses the queue; the deadline crosses it only on a request awaiting its reply (or
 * where the sender asked), whose first delivery is dropped once it passed; an event outlives the
 * request that sent it, through a requeue and a backlog, and a redelivery is never dropped.
 */
@SpringBootTest(classes = RabbitConsumerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
class RabbitListenerTest {

    @Autowired
    private RabbitTemplate rabbit;

    @Autowired
    private AmqpAdmin admin;

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private RabbitConsumerApplication.Deliveries listeners;

    @Autowired
    private RabbitListenerEndpointRegistry containers;

    private final String run = TraceIds.generate().substring(0, 8);

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerDataSource(registry);
        RealServers.registerRabbit(registry);
    }

    private void publish(String queue, String messageId, String payload) {
        rabbit.send(queue, MessageBuilder.withBody(payload.getBytes()).setMessageId(messageId).build());
    }

    private int effects(String messageId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM message_effect WHERE message_id = ?", Integer.class,
                messageId);
    }

    private double idempotent(String name, String outcome) {
        Counter counter = meters.find(ResilienceMetrics.IDEMPOTENT_CALLS).tag("name", name).tag("outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void I5_aMessageDeliveredAgainAfterItsEffectCommittedIsAcknowledgedWithoutASecondEffect() {
        String messageId = "pay-" + run;
        double replayedBefore = idempotent("PAYMENT", "replayed");
        // a producer that retried its send twice: three copies of one message, each delivery's headers its own
        for (int copy = 0; copy < 3; copy++) {
            publish(RabbitConsumerApplication.PAYMENTS, messageId, "order " + run);
        }

        Eventually.waitUntil("both copies acknowledged as replays",
                () -> idempotent("PAYMENT", "replayed") - replayedBefore == 2);
        assertThat(effects(messageId)).isEqualTo(1);
        assertThat(rabbit.receive(RabbitConsumerApplication.PAYMENTS)).as("nothing left to redeliver").isNull();
    }

    @Test
    void aFailedDeliveryReleasesItsKeySoTheRedeliveryRuns() {
        String messageId = "fail-" + run;
        String payload = "failing order " + run;
        listeners.failOnce.add(payload);
        int runsBefore = listeners.paymentRuns.get();
        publish(RabbitConsumerApplication.PAYMENTS, messageId, payload);

        Eventually.waitUntil("the redelivery's effect", () -> effects(messageId) == 1);
        // the first run's insert rolled back with its failure; the container requeued the message
        assertThat(listeners.paymentRuns.get() - runsBefore).isEqualTo(2);
        assertThat(listeners.failOnce).doesNotContain(payload);
    }

    @Test
    void RS1_aConsumerWhoseRetriesAreSpentDeadLettersTheMessageInsteadOfLooping() {
        String messageId = "flaky-" + run;
        listeners.flakyAttempts.set(0);
        // the broker outlives this context (the test command's other legs use it too)
        admin.purgeQueue(RabbitConsumerApplication.FLAKY_DEAD_LETTERS, false);
        publish(RabbitConsumerApplication.FLAKY, messageId, "flaky " + run);

        Message deadLettered = rabbit.receive(RabbitConsumerApplication.FLAKY_DEAD_LETTERS,
                Eventually.GENEROUSLY.toMillis());
        assertThat(deadLettered).as("the message in the dead-letter queue").isNotNull();
        assertThat(deadLettered.getMessageProperties().getMessageId()).isEqualTo(messageId);
        // both attempts of @Retry, once: the message was not requeued for another round
        assertThat(listeners.flakyAttempts.get()).isEqualTo(2);
    }

    @Test
    void aMessageWhoseKeyAnotherPayloadCompletedIsDeadLetteredInsteadOfRequeuedForever() {
        String messageId = "receipt-" + run;
        admin.purgeQueue(RabbitConsumerApplication.RECEIPT_DEAD_LETTERS, false);
        publish(RabbitConsumerApplication.RECEIPTS, messageId, "receipt " + run);
        Eventually.waitUntil("the first payload's effect", () -> effects(messageId) == 1);
        int runsBefore = listeners.receiptRuns.get();

        // a producer's bug: another payload under the same message id; every redelivery would meet the same record
        publish(RabbitConsumerApplication.RECEIPTS, messageId, "another receipt " + run);

        Message deadLettered = rabbit.receive(RabbitConsumerApplication.RECEIPT_DEAD_LETTERS,
                Eventually.GENEROUSLY.toMillis());
        assertThat(deadLettered).as("the second payload in the dead-letter queue").isNotNull();
        assertThat(new String(deadLettered.getBody())).isEqualTo("another receipt " + run);
        assertThat(listeners.receiptRuns.get()).as("the second payload never ran").isEqualTo(runsBefore);
        assertThat(effects(messageId)).isEqualTo(1);
    }

    @Test
    void anEventCarriesTheTraceIdButNotTheDeadlineOfTheRequestThatSentIt() throws Exception {
        String traceId = "trace-" + run;
        listeners.traced.clear();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId(traceId)
                .withDeadline(Deadline.after(Duration.ofSeconds(30))))) {
            rabbit.convertAndSend(RabbitConsumerApplication.TRACED, "hello");
        }

        TraceContext received = listeners.traced.poll(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(received).isNotNull();
        assertThat(received.traceId()).isEqualTo(traceId);
        assertThat(received.deadline()).as("a fire-and-forget event outlives its request").isNull();
    }

    @Test
    void aRequestAwaitingItsReplyCarriesTheSendersDeadline() {
        String reply;
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("request-" + run)
                .withDeadline(Deadline.after(Duration.ofSeconds(30))))) {
            reply = (String) rabbit.convertSendAndReceive(RabbitConsumerApplication.REQUESTS, "how long?");
        }

        assertThat(reply).as("the reply").isNotNull().isNotEqualTo("none");
        assertThat(Long.parseLong(reply)).isPositive().isLessThanOrEqualTo(30_000);
    }

    @Test
    void anEventSentUnderARequestsDeadlineOutlivesARequeuePastThatDeadline() throws Exception {
        String messageId = "requeued-" + run;
        String payload = "requeued order " + run;
        CountDownLatch release = new CountDownLatch(1);
        listeners.failOnceAfter.put(payload, release);
        Deadline request = Deadline.after(Duration.ofMillis(300));
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("requeued-" + run)
                .withDeadline(request))) {
            publish(RabbitConsumerApplication.PAYMENTS, messageId, payload);
        }
        // the first delivery is under way; it fails once the request's deadline is past, and is requeued
        Eventually.waitUntil("the first delivery running", () -> !listeners.failOnceAfter.containsKey(payload));
        Eventually.waitUntil("the request's deadline past", request::isExpired);
        release.countDown();

        Eventually.waitUntil("the redelivery's effect", () -> effects(messageId) == 1);
    }

    @Test
    void anEventLeftInABacklogPastTheRequestsDeadlineIsConsumedWhenItsConsumerStarts() {
        String messageId = "backlog-" + run;
        Deadline request = Deadline.after(Duration.ofMillis(200));
        // Lifecycle: the container's own type moved package in Spring AMQP 4.1
        Lifecycle consumer = containers.getListenerContainer(RabbitConsumerApplication.BACKLOG);
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("backlog-" + run)
                .withDeadline(request))) {
            publish(RabbitConsumerApplication.BACKLOG, messageId, "backlog " + run);
        }
        Eventually.waitUntil("the request's deadline past", request::isExpired);

        consumer.start();
        try {
            Eventually.waitUntil("the event's effect", () -> effects(messageId) == 1);
        } finally {
            consumer.stop();
        }
    }

    @Test
    void aRedeliveryIsNeverDroppedForExpiryAndRunsWithoutTheSpentDeadline() throws Exception {
        String messageId = "redelivered-" + run;
        String payload = "redelivered order " + run;
        CountDownLatch release = new CountDownLatch(1);
        listeners.failOnceAfter.put(payload, release);
        listeners.traced.clear();
        long expiry = System.currentTimeMillis() + 1_000;
        // a sender that asked for a deadline: its first delivery may be dropped, its redelivery not
        rabbit.send(RabbitConsumerApplication.PAYMENTS, MessageBuilder.withBody(payload.getBytes())
                .setMessageId(messageId).setHeader(ResilienceHeaders.DEADLINE_EPOCH_MS, Long.toString(expiry))
                .build());
        Eventually.waitUntil("the first delivery running", () -> !listeners.failOnceAfter.containsKey(payload));
        Eventually.waitUntil("the message's expiry past", () -> System.currentTimeMillis() > expiry);
        release.countDown();

        Eventually.waitUntil("the redelivery's effect", () -> effects(messageId) == 1);
        TraceContext first = listeners.traced.poll(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        TraceContext redelivery = listeners.traced.poll(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(first.deadline()).as("the first delivery ran under the sender's deadline").isNotNull();
        assertThat(redelivery.deadline()).as("the redelivery runs without the spent deadline").isNull();
    }

    @Test
    void theFirstDeliveryOfAMessageWhoseSenderAskedForADeadlineIsDroppedOnceItPassed() throws Exception {
        listeners.traced.clear();
        Counter expired = meters.counter(ResilienceMetrics.MESSAGES_EXPIRED, "destination",
                RabbitConsumerApplication.TRACED);
        double before = expired.count();
        rabbit.send(RabbitConsumerApplication.TRACED, MessageBuilder.withBody("late".getBytes())
                .setHeader(ResilienceHeaders.TRACE_ID, "late-" + run)
                .setHeader(ResilienceHeaders.DEADLINE_EPOCH_MS, Long.toString(System.currentTimeMillis() - 1_000))
                .build());

        Eventually.waitUntil("the drop counted", () -> expired.count() - before == 1);
        assertThat(listeners.traced).as("the listener never ran").isEmpty();
        assertThat(rabbit.receive(RabbitConsumerApplication.TRACED)).as("acknowledged, not requeued").isNull();
    }

    @Test
    void aRequestSentWithTheBudgetSpentIsNotSent() {
        listeners.traced.clear();
        Throwable refused;
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("spent-" + run)
                .withDeadline(Deadline.after(Duration.ZERO)))) {
            refused = catchThrowable(() -> rabbit.convertSendAndReceive(RabbitConsumerApplication.REQUESTS,
                    "too late"));
        }

        assertThat(refused).hasCauseInstanceOf(DeadlineExceededException.class);
        assertThat(rabbit.receive(RabbitConsumerApplication.REQUESTS, 500)).isNull();
        assertThat(listeners.traced).isEmpty();
    }

    @Test
    void anEventSentWithTheRequestsBudgetSpentIsSentAndConsumed() throws Exception {
        listeners.traced.clear();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("spent-event-" + run)
                .withDeadline(Deadline.after(Duration.ZERO)))) {
            rabbit.convertAndSend(RabbitConsumerApplication.TRACED, "committed, then sent late");
        }

        TraceContext received = listeners.traced.poll(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(received).as("the event was sent and consumed").isNotNull();
        assertThat(received.traceId()).isEqualTo("spent-event-" + run);
    }
}
