package io.github.resiliencestarter.autoconfigure.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.retry.RetryOutcome;
import io.github.resiliencestarter.retry.RetrySummary;
import io.github.resiliencestarter.spring.messaging.kafka.KafkaListenerContextInterceptor;
import io.github.resiliencestarter.spring.messaging.kafka.KafkaRetriesSpent;
import io.github.resiliencestarter.spring.messaging.kafka.KafkaTraceProducerInterceptor;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.util.backoff.FixedBackOff;

/**
 * When the Kafka adapters are defined and added, and when they stand back for the application's
 * own record interceptor and error handler.
 */
class KafkaAdaptersAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    MessagingAutoConfiguration.class))
            // nothing connects: a producer factory is only configured here
            .withBean(DefaultKafkaProducerFactory.class, () -> new DefaultKafkaProducerFactory<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
                    ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, "com.example.OwnInterceptor")));

    @Test
    void producersStampRecordsAfterTheirOwnInterceptorsAndListenersGetTheRecordInterceptorAndErrorHandler() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(KafkaListenerContextInterceptor.class).hasSingleBean(
                    CommonErrorHandler.class);
            assertThat(context.getBean(DefaultKafkaProducerFactory.class).getConfigurationProperties())
                    .containsEntry(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG,
                            "com.example.OwnInterceptor," + KafkaTraceProducerInterceptor.class.getName())
                    .as("no setting Kafka would warn of when none is named")
                    .doesNotContainKey(KafkaTraceProducerInterceptor.DEADLINE_TOPICS_CONFIG);
        });
    }

    @Test
    void topicsNamedToCarryTheDeadlineReachTheProducersInterceptor() {
        runner.withPropertyValues("resilience.messaging.deadline-destinations=commands,jobs").run(context ->
                assertThat(context.getBean(DefaultKafkaProducerFactory.class).getConfigurationProperties())
                        .containsEntry(KafkaTraceProducerInterceptor.DEADLINE_TOPICS_CONFIG, "commands,jobs"));
    }

    @Test
    void theApplicationsOwnRecordInterceptorAndErrorHandlerAreLeftAlone() {
        RecordInterceptor<Object, Object> own = (record, consumer) -> record;
        DefaultErrorHandler ownHandler = new DefaultErrorHandler(new FixedBackOff(0, 1));
        runner.withBean("ownInterceptor", RecordInterceptor.class, () -> own)
                .withBean("ownHandler", CommonErrorHandler.class, () -> ownHandler).run(context -> {
                    assertThat(context).doesNotHaveBean(KafkaListenerContextInterceptor.class);
                    assertThat(context.getBean(CommonErrorHandler.class)).isSameAs(ownHandler);
                });
    }

    @Test
    void theBackOffEndsRedeliveriesOfAFailureWhoseRetriesAreSpentOnly() {
        ConsumerRecord<String, String> record = new ConsumerRecord<>("payments", 0, 0, "key", "value");
        IllegalStateException retried = new IllegalStateException("still failing");
        retried.addSuppressed(new RetrySummary("PaymentListener.on", 3, 0, RetryOutcome.FAILED_WITH_RETRY, "3 failed"));

        assertThat(KafkaRetriesSpent.backOff().apply(record, new RuntimeException("wrapped", retried)))
                .isInstanceOfSatisfying(FixedBackOff.class, backOff -> assertThat(backOff.getMaxAttempts()).isZero());
        assertThat(KafkaRetriesSpent.backOff().apply(record, new IllegalStateException("no @Retry"))).isNull();
    }

    @Test
    void withoutSpringKafkaNoKafkaAdapterIsDefined() {
        runner.withClassLoader(new FilteredClassLoader(KafkaTemplate.class)).run(context -> assertThat(context)
                .hasNotFailed().doesNotHaveBean(KafkaListenerContextInterceptor.class)
                .doesNotHaveBean(CommonErrorHandler.class));
    }

    @Test
    void switchedOffNothingIsAddedToTheProducers() {
        runner.withPropertyValues("resilience.messaging.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(KafkaListenerContextInterceptor.class);
            assertThat(context.getBean(DefaultKafkaProducerFactory.class).getConfigurationProperties())
                    .containsEntry(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, "com.example.OwnInterceptor");
        });
    }
}
