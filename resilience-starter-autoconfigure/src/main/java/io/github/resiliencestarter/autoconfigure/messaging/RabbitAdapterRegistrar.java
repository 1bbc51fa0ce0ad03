package io.github.resiliencestarter.autoconfigure.messaging;

import io.github.resiliencestarter.spring.messaging.rabbit.RabbitListenerContextAdvice;
import io.github.resiliencestarter.spring.messaging.rabbit.RabbitTracePostProcessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.aopalliance.aop.Advice;
import org.springframework.amqp.rabbit.config.AbstractRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Adds the adapters to the application's own beans, whoever built them (Boot or the application):
 * the post-processor to every {@code RabbitTemplate}, the advice to every listener container
 * factory, outside the advice the factory already has (a user's retry interceptor runs inside the
 * delivery's context).
 */
class RabbitAdapterRegistrar implements BeanPostProcessor {

    private final ObjectProvider<RabbitTracePostProcessor> postProcessor;

    private final ObjectProvider<RabbitListenerContextAdvice> advice;

    RabbitAdapterRegistrar(ObjectProvider<RabbitTracePostProcessor> postProcessor,
            ObjectProvider<RabbitListenerContextAdvice> advice) {
        this.postProcessor = postProcessor;
        this.advice = advice;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof RabbitTemplate template) {
            template.addBeforePublishPostProcessors(postProcessor.getObject());
        } else if (bean instanceof AbstractRabbitListenerContainerFactory<?> factory) {
            Advice[] existing = factory.getAdviceChain();
            List<Advice> chain = new ArrayList<>(existing == null ? List.of() : Arrays.asList(existing));
            // first: the delivery's context is open for whatever advice the application added
            chain.add(0, advice.getObject());
            factory.setAdviceChain(chain.toArray(Advice[]::new));
        }
        return bean;
    }
}
