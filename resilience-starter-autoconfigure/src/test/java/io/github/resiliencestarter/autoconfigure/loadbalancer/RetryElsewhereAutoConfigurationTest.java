package io.github.resiliencestarter.autoconfigure.loadbalancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;

/** The conditions of retry elsewhere, and its counter. */
class RetryElsewhereAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, RetryAutoConfiguration.class,
                    RetryElsewhereAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new);

    @Test
    void withLoadBalancerEachCallRecordsItsFailedInstancesAndAvoidedOnesAreCounted() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(FailedInstanceRecorder.class);
            assertThat(context.getBean(RetryConfigRegistry.class).config(null).avoidFailedTargets()).isTrue();
            context.getBean(AvoidedInstanceListener.class).avoided("inventory", "10.0.0.7:8080");
            assertThat(context.getBean(MeterRegistry.class).get(RetryElsewhereAutoConfiguration.AVOIDED_INSTANCES)
                    .tag("service", "inventory").counter().count()).isEqualTo(1.0);
        });
    }

    @Test
    void switchedOffNothingIsRecorded() {
        runner.withPropertyValues("resilience.retry.avoid-failed-instances=false").run(context -> {
            assertThat(context).doesNotHaveBean(FailedInstanceRecorder.class);
            assertThat(context.getBean(RetryConfigRegistry.class).config(null).avoidFailedTargets()).isFalse();
        });
    }

    @Test
    void withoutLoadBalancerNothingIsRegistered() {
        runner.withClassLoader(new FilteredClassLoader(ServiceInstanceListSupplier.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(FailedInstanceRecorder.class));
    }
}
