package io.github.resiliencestarter.autoconfigure.messaging;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.context.TraceIdSource;
import io.github.resiliencestarter.messaging.MessageObserver;
import io.github.resiliencestarter.spring.messaging.InboundMessageContext;
import io.github.resiliencestarter.spring.messaging.kafka.KafkaListenerContextInterceptor;
import io.github.resiliencestarter.spring.messaging.kafka.KafkaRetriesSpent;
import io.github.resiliencestarter.spring.messaging.rabbit.RabbitListenerContextAdvice;
import io.github.resiliencestarter.spring.messaging.rabbit.RabbitTracePostProcessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * The message adapters, one configuration per broker client on the class path. Messages sent carry
 * the trace id, and requests awaiting a reply the deadline as an absolute expiry; received ones run
 * in that context, a request's first delivery is dropped unconsumed once expired, and a message is
 * not redelivered once {@code @Retry} has spent its attempts (docs/messaging.md).
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@Conditional(OnMessagingClientCondition.class)
@ConditionalOnBooleanProperty(name = MessagingProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(MessagingProperties.class)
public class MessagingAutoConfiguration {

    /**
     * Reads received messages' trace context.
     *
     * @param properties the bound properties
     * @param observers hear every dropped message (metrics)
     * @param tracerIds the tracer's trace ids, when a tracer runs
     * @return the reader
     */
    @Bean
    @ConditionalOnMissingBean
    public InboundMessageContext inboundMessageContext(MessagingProperties properties,
            ObjectProvider<MessageObserver> observers, ObjectProvider<TraceIdSource> tracerIds) {
        // looked up per drop (rare): the observers are often built from beans that are not yet there
        return properties.toInbound(destination -> observers.orderedStream().forEach(each -> each.onExpired(
                destination)), tracerIds.getIfAvailable());
    }

    /** RabbitMQ through Spring AMQP: every template and every listener container factory. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = OnMessagingClientCondition.RABBIT_TEMPLATE)
    static class RabbitAdapters {

        /**
         * Stamps published messages.
         *
         * @param properties the bound properties (which destinations carry the deadline)
         * @return the post-processor
         */
        @Bean
        @ConditionalOnMissingBean
        RabbitTracePostProcessor rabbitTracePostProcessor(MessagingProperties properties) {
            return new RabbitTracePostProcessor(properties.toOutbound());
        }

        /**
         * Runs deliveries in their context.
         *
         * @param inbound reads a delivery's context
         * @return the advice
         */
        @Bean
        @ConditionalOnMissingBean
        RabbitListenerContextAdvice rabbitListenerContextAdvice(InboundMessageContext inbound) {
            return new RabbitListenerContextAdvice(inbound);
        }

        /**
         * Adds the two above to the application's templates and listener container factories.
         *
         * @param postProcessor the post-processor, looked up when the first template is made
         * @param advice the advice, looked up when the first factory is made
         * @return the registrar
         */
        @Bean
        @ConditionalOnMissingBean(RabbitAdapterRegistrar.class)
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static RabbitAdapterRegistrar rabbitAdapterRegistrar(ObjectProvider<RabbitTracePostProcessor> postProcessor,
                ObjectProvider<RabbitListenerContextAdvice> advice) {
            return new RabbitAdapterRegistrar(postProcessor, advice);
        }
    }

    /**
     * Apache Kafka through Spring for Apache Kafka. Boot gives a listener container factory the one
     * {@code RecordInterceptor} and the one {@code CommonErrorHandler} of the application: the
     * starter's stand back when the application has its own (docs/messaging.md says how to add
     * them to it).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = OnMessagingClientCondition.KAFKA_TEMPLATE)
    static class KafkaAdapters {

        /**
         * Runs each record's listener in its context.
         *
         * @param inbound reads a record's context
         * @return the interceptor
         */
        @Bean
        @ConditionalOnMissingBean(RecordInterceptor.class)
        KafkaListenerContextInterceptor kafkaListenerContextInterceptor(InboundMessageContext inbound) {
            return new KafkaListenerContextInterceptor(inbound);
        }

        /**
         * Spring for Apache Kafka's default error handler (nine more deliveries, then the failure
         * is logged and the record skipped), except that a record whose {@code @Retry} is spent
         * goes to the recoverer at once.
         *
         * @return the error handler
         */
        @Bean
        @ConditionalOnMissingBean(CommonErrorHandler.class)
        DefaultErrorHandler kafkaErrorHandler() {
            DefaultErrorHandler handler = new DefaultErrorHandler();
            handler.setBackOffFunction(KafkaRetriesSpent.backOff());
            return handler;
        }

        /**
         * Adds the producer interceptor to every producer factory of the application.
         *
         * @param properties the bound properties (which topics carry the deadline), looked up when
         *     the first producer factory is made
         * @return the registrar
         */
        @Bean
        @ConditionalOnMissingBean(KafkaProducerInterceptorRegistrar.class)
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static KafkaProducerInterceptorRegistrar kafkaProducerInterceptorRegistrar(
                ObjectProvider<MessagingProperties> properties) {
            return new KafkaProducerInterceptorRegistrar(properties);
        }
    }
}
