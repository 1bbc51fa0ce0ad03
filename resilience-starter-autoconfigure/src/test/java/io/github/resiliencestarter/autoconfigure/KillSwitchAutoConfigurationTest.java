package io.github.resiliencestarter.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.http.OutboundHttpAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.LiveTuningAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings;
import io.github.resiliencestarter.spring.aop.ResilienceAnnotationAdvisor;
import io.github.resiliencestarter.spring.http.DerivedIdempotencyKeyInterceptor;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code resilience.enabled=false} keeps the injectable beans, as pass-throughs, and nothing else. */
class KillSwitchAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    RetryAutoConfiguration.class, IdempotencyAutoConfiguration.class,
                    OutboundHttpAutoConfiguration.class, LiveTuningAutoConfiguration.class,
                    ResilienceDisabledAutoConfiguration.class));

    @Test
    void switchedOffTheInjectableBeansStayAndNothingActs() {
        runner.withPropertyValues("resilience.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(DerivedIdempotencyKeyInterceptor.class)
                    .hasSingleBean(ResilienceSettings.class).doesNotHaveBean(ResilienceAnnotationAdvisor.class)
                    .doesNotHaveBean(TimeoutRuntime.class);
            assertThat(context.getBean(ResilienceSettings.class).reload()).isTrue();
        });
    }

    @Test
    void switchedOnEachInjectableBeanExistsOnce() {
        runner.run(context -> assertThat(context).hasNotFailed()
                .hasSingleBean(DerivedIdempotencyKeyInterceptor.class).hasSingleBean(ResilienceSettings.class)
                .hasBean("timeoutAdvisor"));
    }
}
