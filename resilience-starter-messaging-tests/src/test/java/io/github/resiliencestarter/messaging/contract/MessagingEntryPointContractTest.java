package io.github.resiliencestarter.messaging.contract;

import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.contract.EntryPoint;
import io.github.resiliencestarter.testsupport.contract.IdempotencyEntryPointContract;
import io.github.resiliencestarter.testsupport.contract.MessageEntryPoint;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.Lifecycle;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The {@code @Idempotent} contract on a RabbitMQ listener (real broker) and a Kafka listener (KRaft
 * broker in this JVM), the JDBC store on MariaDB. A message has no answer and no caller: the cases
 * about those are not theirs.
 */
@SpringBootTest(classes = MessagingEntryPointsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
@EmbeddedKafka(partitions = MessagingEntryPointsApplication.CONSUMERS, topics = MessagingEntryPointsApplication.TOPIC)
class MessagingEntryPointContractTest extends IdempotencyEntryPointContract {

    @Autowired
    private RabbitTemplate rabbit;

    @Autowired
    private KafkaTemplate<Object, Object> kafka;

    @Autowired
    private RabbitListenerEndpointRegistry rabbitContainers;

    @Autowired
    private KafkaListenerEndpointRegistry kafkaContainers;

    /** Spreads the records of one key over the partitions, so that its duplicates can overlap. */
    private final AtomicInteger partitions = new AtomicInteger();

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerDataSource(registry);
        RealServers.registerRabbit(registry);
        MessagingEntryPointsApplication.properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @Override
    protected Class<?> application() {
        return MessagingEntryPointsApplication.class;
    }

    @Override
    protected List<String> applicationArguments() {
        return List.of("--spring.embedded.kafka.brokers=" + System.getProperty("spring.embedded.kafka.brokers"));
    }

    private ConcurrentMessageListenerContainer<?, ?> kafkaContainer() {
        return (ConcurrentMessageListenerContainer<?, ?>) kafkaContainers.getListenerContainers().stream()
                .filter(each -> "contract".equals(each.getGroupId())).findFirst().orElseThrow();
    }

    /**
     * Each Kafka consumer owns one partition before a case runs: a rebalance waits for every
     * consumer's poll, and a consumer held in a case would hold it up.
     */
    @BeforeAll
    void oneAssignedPartitionPerConsumer() {
        Eventually.waitUntil("one partition per Kafka consumer", () -> {
            List<? extends MessageListenerContainer> consumers = kafkaContainer().getContainers();
            return consumers.size() == MessagingEntryPointsApplication.CONSUMERS && consumers.stream().allMatch(
                    consumer -> consumer.getAssignedPartitions() != null && consumer.getAssignedPartitions().size() == 1);
        });
    }

    @Override
    protected List<EntryPoint> entryPoints() {
        // the container's type moved package in Spring AMQP 4.1: held as what it is here, a lifecycle
        Lifecycle rabbitConsumers = rabbitContainers.getListenerContainer(MessagingEntryPointsApplication.RABBIT_LISTENER);
        return List.of(new MessageEntryPoint("rabbit", (key, payload) -> rabbit.send(
                MessagingEntryPointsApplication.QUEUE, MessageBuilder.withBody(payload.getBytes()).setMessageId(key)
                        .build()), new MessageEntryPoint.Consumers() {
                            @Override
                            public void stop() {
                                rabbitConsumers.stop();
                            }

                            @Override
                            public void start() {
                                rabbitConsumers.start();
                                Eventually.waitUntil("the RabbitMQ consumers back", rabbitConsumers::isRunning);
                            }
                        }),
                new MessageEntryPoint("kafka", (key, payload) -> {
                    int partition = partitions.getAndIncrement() % MessagingEntryPointsApplication.CONSUMERS;
                    try {
                        kafka.send(new ProducerRecord<>(MessagingEntryPointsApplication.TOPIC, partition, key, payload))
                                .get(30, TimeUnit.SECONDS);
                    } catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                }, new MessageEntryPoint.Consumers() {
                    @Override
                    public void stop() {
                        kafkaContainer().stop();
                    }

                    @Override
                    public void start() {
                        kafkaContainer().start();
                        oneAssignedPartitionPerConsumer();
                    }
                }));
    }
}
