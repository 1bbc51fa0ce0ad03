package io.github.resiliencestarter.autoconfigure.messaging;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.messaging.MessageObserver;
import io.github.resiliencestarter.spring.messaging.InboundMessageContext;
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
import org.springframework.context.annotation.Role;

/**
 * RabbitMQ through Spring AMQP: messages published by any {@code RabbitTemplate} carry the trace id
 * and the deadline as an absolute expiry; deliveries to listeners of any container factory run in
 * that context, are dropped unconsumed once expired, and are dead-lettered rather than requeued
 * once {@code @Retry} has spent its attempts.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@ConditionalOnClass(name = "org.springframework.amqp.rabbit.core.RabbitTemplate")
@ConditionalOnBooleanProperty(name = MessagingProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(MessagingProperties.class)
public class RabbitMessagingAutoConfiguration {

    /**
     * Reads received messages' trace context.
     *
     * @param properties the bound properties
     * @param observers hear every dropped message (metrics)
     * @return the reader
     */
    @Bean
    @ConditionalOnMissingBean
    public InboundMessageContext inboundMessageContext(MessagingProperties properties,
            ObjectProvider<MessageObserver> observers) {
        // looked up per drop (rare): the observers are often built from beans that are not yet there
        return properties.toInbound(destination -> observers.orderedStream().forEach(each -> each.onExpired(
                destination)));
    }

    /**
     * Stamps published messages.
     *
     * @return the post-processor
     */
    @Bean
    @ConditionalOnMissingBean
    public RabbitTracePostProcessor rabbitTracePostProcessor() {
        return new RabbitTracePostProcessor();
    }

    /**
     * Runs deliveries in their context.
     *
     * @param inbound reads a delivery's context
     * @return the advice
     */
    @Bean
    @ConditionalOnMissingBean
    public RabbitListenerContextAdvice rabbitListenerContextAdvice(InboundMessageContext inbound) {
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
