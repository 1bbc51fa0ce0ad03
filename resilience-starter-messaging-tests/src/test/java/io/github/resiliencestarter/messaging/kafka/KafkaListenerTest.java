package io.github.resiliencestarter.messaging.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.micrometer.ResilienceMetrics;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.RealServers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code @Idempotent}, {@code @Retry} and the deadline on {@code @KafkaListener} methods, on a real
 * Kafka broker (KRaft, in this JVM) and the JDBC store on MariaDB: a record sent again after its
 * effect committed is consumed without a second effect; a consumer whose retries are spent sends
 * the record to the dead-letter topic at once instead of redelivering it; the trace id crosses the
 * topic, the deadline only on a request awaiting its reply (or where the sender asked), whose first
 * delivery is skipped once it passed; an event outlives the request that sent it, and a redelivery
 * is never dropped.
 */
@SpringBootTest(classes = KafkaConsumerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}")
@EmbeddedKafka(partitions = 1, topics = {KafkaConsumerApplication.PAYMENTS, KafkaConsumerApplication.FLAKY,
    KafkaConsumerApplication.FLAKY_DEAD_LETTERS, KafkaConsumerApplication.TRACED, KafkaConsumerApplication.EVENTS,
    KafkaConsumerApplication.BACKLOG})
class KafkaListenerTest {

    @Autowired
    private KafkaTemplate<Object, Object> kafka;

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private KafkaConsumerApplication.Deliveries listeners;

    @Autowired
    private EmbeddedKafkaBroker broker;

    @Autowired
    private KafkaListenerEndpointRegistry containers;

    private final String run = TraceIds.generate().substring(0, 8);

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerDataSource(registry);
        registry.add("spring.kafka.producer.key-serializer",
                () -> "org.apache.kafka.common.serialization.StringSerializer");
        registry.add("spring.kafka.producer.value-serializer",
                () -> "org.apache.kafka.common.serialization.StringSerializer");
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
    void I5_aRecordSentAgainAfterItsEffectCommittedIsConsumedWithoutASecondEffect() throws Exception {
        String key = "kpay-" + run;
        double replayedBefore = idempotent("K_PAYMENT", "replayed");
        // a producer that retried its send twice: three copies of one record, each at its own offset
        for (int copy = 0; copy < 3; copy++) {
            kafka.send(KafkaConsumerApplication.PAYMENTS, key, "order " + run).get(30, TimeUnit.SECONDS);
        }

        Eventually.waitUntil("both copies consumed as replays",
                () -> idempotent("K_PAYMENT", "replayed") - replayedBefore == 2);
        assertThat(effects(key)).isEqualTo(1);
    }

    @Test
    void RS1_aConsumerWhoseRetriesAreSpentSendsTheRecordToTheDeadLetterTopicAtOnce() throws Exception {
        String key = "kflaky-" + run;
        listeners.flakyAttempts.set(0);
        Map<String, Object> settings = KafkaTestUtils.consumerProps("dead-letters-" + run, "false", broker);
        settings.put("auto.offset.reset", "earliest");
        try (Consumer<String, String> deadLetters = new DefaultKafkaConsumerFactory<String, String>(settings,
                new org.apache.kafka.common.serialization.StringDeserializer(),
                new org.apache.kafka.common.serialization.StringDeserializer()).createConsumer()) {
            broker.consumeFromAnEmbeddedTopic(deadLetters, KafkaConsumerApplication.FLAKY_DEAD_LETTERS);
            kafka.send(KafkaConsumerApplication.FLAKY, key, "flaky " + run).get(30, TimeUnit.SECONDS);

            ConsumerRecord<String, String> deadLetter = null;
            long until = System.nanoTime() + Eventually.GENEROUSLY.toNanos();
            while (deadLetter == null && System.nanoTime() < until) {
                for (ConsumerRecord<String, String> each : KafkaTestUtils.getRecords(deadLetters,
                        Duration.ofSeconds(1))) {
                    if (key.equals(each.key())) {
                        deadLetter = each;
                    }
                }
            }
            assertThat(deadLetter).as("the record on the dead-letter topic").isNotNull();
        }
        // both attempts of @Retry, once: the error handler did not redeliver it for more rounds
        assertThat(listeners.flakyAttempts.get()).isEqualTo(2);
    }

    @Test
    void anEventCarriesTheTraceIdButNotTheDeadlineOfTheRequestThatSentIt() throws Exception {
        String traceId = "ktrace-" + run;
        listeners.traced.clear();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId(traceId)
                .withDeadline(Deadline.after(Duration.ofSeconds(30))))) {
            kafka.send(KafkaConsumerApplication.TRACED, "hello").get(30, TimeUnit.SECONDS);
        }

        TraceContext received = listeners.traced.poll(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(received).isNotNull();
        assertThat(received.traceId()).isEqualTo(traceId);
        assertThat(received.deadline()).as("a fire-and-forget event outlives its request").isNull();
    }

    @Test
    void aRecordAwaitingAReplyCarriesTheSendersDeadline() throws Exception {
        listeners.traced.clear();
        ProducerRecord<Object, Object> request = new ProducerRecord<>(KafkaConsumerApplication.TRACED, "how long?");
        // what ReplyingKafkaTemplate adds to a request
        request.headers().add(KafkaHeaders.REPLY_TOPIC, "k-replies".getBytes(StandardCharsets.UTF_8));
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("krequest-" + run)
                .withDeadline(Deadline.after(Duration.ofSeconds(30))))) {
            kafka.send(request).get(30, TimeUnit.SECONDS);
        }

        TraceContext received = listeners.traced.poll(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(received).isNotNull();
        assertThat(received.deadline()).isNotNull();
        assertThat(received.deadline().remaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aRecordRedeliveredAfterAFailureIsNeverDroppedForExpiry() throws Exception {
        String key = "kredelivered-" + run;
        String value = "redelivered order " + run;
        CountDownLatch release = new CountDownLatch(1);
        listeners.failOnceAfter.put(value, release);
        listeners.traced.clear();
        long expiry = System.currentTimeMillis() + 1_000;
        // a sender that asked for a deadline: its first delivery may be dropped, its redelivery not
        ProducerRecord<Object, Object> record = new ProducerRecord<>(KafkaConsumerApplication.EVENTS, key, value);
        record.headers().add(ResilienceHeaders.DEADLINE_EPOCH_MS, Long.toString(expiry).getBytes(StandardCharsets.UTF_8));
        kafka.send(record).get(30, TimeUnit.SECONDS);
        Eventually.waitUntil("the first delivery running", () -> !listeners.failOnceAfter.containsKey(value));
        Eventually.waitUntil("the record's expiry past", () -> System.currentTimeMillis() > expiry);
        release.countDown();

        Eventually.waitUntil("the redelivery's effect", () -> effects(key) == 1);
        TraceContext first = listeners.traced.poll(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        TraceContext redelivery = listeners.traced.poll(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(first.deadline()).as("the first delivery ran under the sender's deadline").isNotNull();
        assertThat(redelivery.deadline()).as("the redelivery runs without the spent deadline").isNull();
    }

    @Test
    void anEventLeftInABacklogPastTheRequestsDeadlineIsConsumedWhenItsConsumerStarts() throws Exception {
        String key = "kbacklog-" + run;
        Deadline request = Deadline.after(Duration.ofMillis(200));
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("kbacklog-" + run)
                .withDeadline(request))) {
            kafka.send(KafkaConsumerApplication.BACKLOG, key, "backlog " + run).get(30, TimeUnit.SECONDS);
        }
        Eventually.waitUntil("the request's deadline past", request::isExpired);

        MessageListenerContainer consumer = containers.getListenerContainer(KafkaConsumerApplication.BACKLOG);
        consumer.start();
        try {
            Eventually.waitUntil("the event's effect", () -> effects(key) == 1);
        } finally {
            consumer.stop();
        }
    }

    @Test
    void aRecordThatArrivesAfterItsDeadlineIsSkippedUnconsumed() throws Exception {
        listeners.traced.clear();
        Counter expired = meters.counter(ResilienceMetrics.MESSAGES_EXPIRED, "destination",
                KafkaConsumerApplication.TRACED);
        double before = expired.count();
        ProducerRecord<Object, Object> late = new ProducerRecord<>(KafkaConsumerApplication.TRACED, "late");
        late.headers().add(ResilienceHeaders.DEADLINE_EPOCH_MS,
                Long.toString(System.currentTimeMillis() - 1_000).getBytes(StandardCharsets.UTF_8));
        kafka.send(late).get(30, TimeUnit.SECONDS);

        Eventually.waitUntil("the drop counted", () -> expired.count() - before == 1);
        assertThat(listeners.traced).as("the listener never ran").isEmpty();
    }
}
