package io.github.resiliencestarter.autoconfigure.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.spring.messaging.InboundMessageContext;
import io.github.resiliencestarter.spring.messaging.rabbit.RabbitListenerContextAdvice;
import io.github.resiliencestarter.spring.messaging.rabbit.RabbitTracePostProcessor;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * When the RabbitMQ adapters are added to the application's templates and listener container
 * factories, and when not.
 */
class RabbitAdaptersAutoConfigurationTest {

    /** An advice the application put on its factory itself (a retry interceptor, say). */
    private static final MethodInterceptor OWN_ADVICE = invocation -> invocation.proceed();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    MessagingAutoConfiguration.class))
            // nothing connects: a template and a factory are only configured here
            .withBean(CachingConnectionFactory.class, () -> new CachingConnectionFactory("127.0.0.1", 1))
            .withBean(RabbitTemplate.class, () -> new RabbitTemplate(new CachingConnectionFactory("127.0.0.1", 1)))
            .withBean(SimpleRabbitListenerContainerFactory.class, () -> {
                SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
                factory.setAdviceChain(OWN_ADVICE);
                return factory;
            });

    @Test
    void everyTemplateStampsWhatItPublishesAndEveryFactoryOpensTheDeliverysContextOutsideItsOwnAdvice() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(InboundMessageContext.class);
            assertThat(context.getBean(RabbitTemplate.class).getBeforePublishPostProcessors())
                    .containsExactly(context.getBean(RabbitTracePostProcessor.class));
            assertThat(context.getBean(SimpleRabbitListenerContainerFactory.class).getAdviceChain())
                    .containsExactly(context.getBean(RabbitListenerContextAdvice.class), OWN_ADVICE);
        });
    }

    @Test
    void switchedOffNothingIsAdded() {
        runner.withPropertyValues("resilience.messaging.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(RabbitTracePostProcessor.class)
                    .doesNotHaveBean(RabbitListenerContextAdvice.class);
            assertThat(context.getBean(RabbitTemplate.class).getBeforePublishPostProcessors()).isNull();
            assertThat(context.getBean(SimpleRabbitListenerContainerFactory.class).getAdviceChain())
                    .containsExactly(OWN_ADVICE);
        });
    }

    @Test
    void withTheWholeStarterOffNothingIsAdded() {
        runner.withPropertyValues("resilience.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(RabbitTracePostProcessor.class).doesNotHaveBean(InboundMessageContext.class));
    }

    @Test
    void withoutSpringAmqpNoRabbitAdapterIsDefined() {
        runner.withClassLoader(new FilteredClassLoader(RabbitTemplate.class)).run(context -> assertThat(context)
                .hasNotFailed().doesNotHaveBean(RabbitTracePostProcessor.class)
                .doesNotHaveBean(RabbitListenerContextAdvice.class));
    }

    @Test
    void withoutAnyBrokerClientNothingIsDefined() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                        MessagingAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(RabbitTemplate.class, KafkaTemplate.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(InboundMessageContext.class)
                        .doesNotHaveBean(MessagingProperties.class));
    }

    @Test
    void anApplicationsOwnAdviceBeanReplacesTheStartersAndIsTheOneAdded() {
        RabbitListenerContextAdvice own = new RabbitListenerContextAdvice(
                new MessagingProperties().toInbound(destination -> { }, null));
        runner.withBean("ownAdvice", RabbitListenerContextAdvice.class, () -> own).run(context -> {
            assertThat(context).hasSingleBean(RabbitListenerContextAdvice.class);
            assertThat(context.getBean(SimpleRabbitListenerContainerFactory.class).getAdviceChain()[0]).isSameAs(own);
        });
    }

    @Test
    void aMaxBudgetOfZeroFailsTheStartNamingTheProperty() {
        runner.withPropertyValues("resilience.messaging.max-budget=0s").run(context -> assertThat(context)
                .getFailure().rootCause().hasMessageContaining("resilience.messaging").hasMessageContaining("max-budget"));
    }
}
