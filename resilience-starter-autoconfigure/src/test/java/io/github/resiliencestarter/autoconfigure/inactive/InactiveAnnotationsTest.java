package io.github.resiliencestarter.autoconfigure.inactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.inactive.fixtures.Orders;
import io.github.resiliencestarter.autoconfigure.inactive.fixtures.PriceCalculator;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.spring.actuate.ResilienceEndpoint;
import io.github.resiliencestarter.spring.actuate.ResilienceReportSection;
import io.github.resiliencestarter.spring.actuate.ResilienceSettingsInspector;
import io.github.resiliencestarter.spring.actuate.SettingsChanges;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import io.github.resiliencestarter.spring.aop.IdempotentOperationSource;
import io.github.resiliencestarter.spring.aop.InactiveAnnotation;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Annotations that cannot take effect (private, static, final methods; classes that are not
 * beans) are reported at startup, one warning each, and listed as inactive by the endpoint.
 */
@ExtendWith(OutputCaptureExtension.class)
class InactiveAnnotationsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TimeoutAutoConfiguration.class, RetryAutoConfiguration.class))
            .withUserConfiguration(Application.class);

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = Orders.class)
    static class Application {

        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    @Test
    void eachAnnotationNoCallCanReachIsWarnedAboutWithItsReason(CapturedOutput output) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            List<InactiveAnnotation> inactive = context.getBean(AnnotatedMethodValidator.class).inactive();
            assertThat(inactive).extracting(InactiveAnnotation::method, InactiveAnnotation::annotation)
                    .containsExactlyInAnyOrder(
                            Tuple.tuple(Orders.class.getName() + ".audit()", "@Retry"),
                            Tuple.tuple(Orders.class.getName() + ".cancel()", "@Timeout"),
                            Tuple.tuple(Orders.class.getName() + ".describe()", "@Timeout"),
                            Tuple.tuple(PriceCalculator.class.getName() + ".price(long)",
                                    "@Timeout"));
            assertThat(inactive).extracting(InactiveAnnotation::reason).anySatisfy(r -> assertThat(r)
                    .contains("private")).anySatisfy(r -> assertThat(r).contains("final"))
                    .anySatisfy(r -> assertThat(r).contains("static"))
                    .anySatisfy(r -> assertThat(r).contains("PriceCalculator is not a Spring bean"));
            assertThat(output.getOut()).contains("@Retry on " + Orders.class.getName() + ".audit() has no effect",
                    "@Timeout on " + PriceCalculator.class.getName() + ".price(long) has no effect");
        });
    }

    @Test
    void theActiveMethodStillWorksAndTheEndpointListsTheOthersAsInactive() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            assertThat(AopUtils.isAopProxy(orders)).isTrue();
            assertThat(orders.place()).isEqualTo("placed audited");
            assertThat(context.getBean(TimeoutOperationSource.class).operations())
                    .extracting(operation -> operation.name()).containsExactly("Orders.place");

            ResilienceEndpoint endpoint = new ResilienceEndpoint(context.getBeanProvider(TimeoutOperationSource.class),
                    context.getBeanProvider(RetryOperationSource.class),
                    context.getBeanProvider(IdempotentOperationSource.class),
                    context.getBeanProvider(IdempotencyActivation.class),
                    context.getBeanProvider(RetryConfigRegistry.class),
                    context.getBeanProvider(ResilienceSettingsInspector.class),
                    context.getBeanProvider(AnnotatedMethodValidator.class),
                    context.getBeanProvider(SettingsChanges.class),
                    context.getBeanProvider(ResilienceReportSection.class));
            @SuppressWarnings("unchecked")
            List<Map<String, String>> listed = (List<Map<String, String>>) endpoint.report().get("inactive");
            assertThat(listed).hasSize(4).extracting(entry -> entry.get("method"))
                    .contains(Orders.class.getName() + ".cancel()");
            assertThat(((Map<?, ?>) endpoint.report().get("methods")).keySet().toString()).isEqualTo("[Orders.place]");
        });
    }
}
