package io.github.resiliencestarter.messaging.contract;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.spring.messaging.InboundMessageContext;
import io.github.resiliencestarter.spring.messaging.kafka.KafkaListenerContextInterceptor;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.testsupport.contract.ContractProcess;
import io.github.resiliencestarter.testsupport.contract.ContractWork;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.AbstractRabbitListenerContainerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.CompositeRecordInterceptor;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * Two message entry points in one application: an {@code @Idempotent} {@code @RabbitListener} and
 * an {@code @Idempotent} {@code @KafkaListener}, four consumers each (so that duplicates can run
 * side by side), the key the message's id (RabbitMQ) or the record's key (Kafka). Both run
 * {@link ContractWork}. Each container tells the contract when a delivery reaches it and when it is
 * done with it: an advice on the RabbitMQ containers, a record interceptor beside the starter's on
 * Kafka (combined as the messaging docs say).
 */
@SpringBootApplication
@Import(MessagingEntryPointsApplication.Listeners.class)
public class MessagingEntryPointsApplication {

    /** The RabbitMQ entry point's queue. */
    public static final String QUEUE = "contract";

    /** The Kafka entry point's topic, one partition per consumer. */
    public static final String TOPIC = "k-contract";

    /** Consumers per entry point, and partitions of the topic. */
    public static final int CONSUMERS = 4;

    /** The RabbitMQ listener's container. */
    public static final String RABBIT_LISTENER = "contract-rabbit";

    /**
     * The application in a second process of its own ({@link ContractProcess}), consuming for the
     * one entry point it is started for ({@code --contract.entry-point}); the Kafka broker's address
     * comes as {@code --spring.embedded.kafka.brokers}.
     *
     * @param args Spring Boot arguments
     */
    public static void main(String[] args) {
        String entryPoint = Arrays.stream(args).filter(arg -> arg.startsWith("--contract.entry-point="))
                .map(arg -> arg.substring(arg.indexOf('=') + 1)).findFirst().orElse("");
        RealServers.Jdbc database = RealServers.jdbc();
        new SpringApplicationBuilder(MessagingEntryPointsApplication.class).properties(properties())
                .properties("spring.main.web-application-type=none", "spring.datasource.url=" + database.url(),
                        "spring.datasource.username=" + database.user(),
                        "spring.datasource.password=" + database.password(),
                        "spring.rabbitmq.addresses=" + RealServers.rabbitUrl(),
                        "contract.rabbit=" + entryPoint.equals("rabbit"), "contract.kafka=" + entryPoint.equals("kafka"))
                .run(args);
    }

    /**
     * What the application runs with, in the test and in a second process alike (the servers'
     * addresses apart): one delivery at a time per RabbitMQ consumer; Kafka from the earliest
     * record, a consumer killed with its records given to the others within seconds.
     *
     * @return the properties
     */
    public static Map<String, Object> properties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.kafka.bootstrap-servers", "${spring.embedded.kafka.brokers}");
        properties.put("spring.kafka.consumer.auto-offset-reset", "earliest");
        properties.put("spring.kafka.consumer.properties[session.timeout.ms]", 6000);
        properties.put("spring.kafka.consumer.properties[heartbeat.interval.ms]", 1000);
        properties.put("spring.kafka.producer.key-serializer", "org.apache.kafka.common.serialization.StringSerializer");
        properties.put("spring.kafka.producer.value-serializer",
                "org.apache.kafka.common.serialization.StringSerializer");
        properties.put("spring.rabbitmq.listener.simple.prefetch", 1);
        return properties;
    }

    @Bean
    Declarables contractQueue() {
        return new Declarables(QueueBuilder.nonDurable(QUEUE).build());
    }

    @Bean
    static BeanPostProcessor rabbitDeliveriesTold() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof AbstractRabbitListenerContainerFactory<?> factory) {
                    MethodInterceptor told = invocation -> {
                        Object data = invocation.getArguments().length > 1 ? invocation.getArguments()[1] : null;
                        String key = data instanceof Message message ? message.getMessageProperties().getMessageId()
                                : null;
                        if (key != null) {
                            ContractWork.arrived(key);
                        }
                        try {
                            return invocation.proceed();
                        } finally {
                            if (key != null) {
                                ContractWork.handled(key);
                            }
                        }
                    };
                    Advice[] existing = factory.getAdviceChain();
                    List<Advice> chain = new java.util.ArrayList<>(existing == null ? List.of() : List.of(existing));
                    chain.add(told);
                    factory.setAdviceChain(chain.toArray(Advice[]::new));
                }
                return bean;
            }
        };
    }

    @Bean
    RecordInterceptor<Object, Object> recordInterceptor(InboundMessageContext inbound) {
        RecordInterceptor<Object, Object> told = new RecordInterceptor<>() {
            @Override
            public ConsumerRecord<Object, Object> intercept(ConsumerRecord<Object, Object> record,
                    Consumer<Object, Object> consumer) {
                ContractWork.arrived(String.valueOf(record.key()));
                return record;
            }

            @Override
            public void afterRecord(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
                ContractWork.handled(String.valueOf(record.key()));
            }
        };
        return new CompositeRecordInterceptor<>(new KafkaListenerContextInterceptor(inbound), told);
    }

    /** The listeners. */
    public static class Listeners {

        @RabbitListener(id = RABBIT_LISTENER, queues = QUEUE, concurrency = "" + CONSUMERS,
                autoStartup = "${contract.rabbit:true}")
        @Idempotent(name = "CONTRACT_RABBIT", key = "#message.messageProperties.messageId")
        public void onRabbit(Message message) {
            ContractWork.perform("rabbit", message.getMessageProperties().getMessageId(),
                    new String(message.getBody(), StandardCharsets.UTF_8));
        }

        @KafkaListener(topics = TOPIC, groupId = "contract", concurrency = "" + CONSUMERS,
                autoStartup = "${contract.kafka:true}")
        @Idempotent(name = "CONTRACT_KAFKA", key = "#record.key()")
        public void onKafka(ConsumerRecord<String, String> record) {
            ContractWork.perform("kafka", record.key(), record.value());
        }
    }
}
