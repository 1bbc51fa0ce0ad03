package io.github.resiliencestarter.autoconfigure.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import io.github.resiliencestarter.spring.aop.ResilienceAnnotationAdvisor;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import io.github.resiliencestarter.timeout.TimeoutConfigRegistry;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class TimeoutAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class));

    @Test
    void registersTheTimeoutBeansByDefault() {
        runner.run(context -> assertThat(context)
                .hasSingleBean(TimeoutConfigRegistry.class)
                .hasSingleBean(TimeoutRuntime.class)
                .hasSingleBean(TimeoutOperationSource.class)
                .hasBean("timeoutAdvisor")
                .hasSingleBean(AnnotatedMethodValidator.class));
    }

    @Test
    void resilienceEnabledFalseSwitchesEverythingOff() {
        runner.withPropertyValues("resilience.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(TimeoutRuntime.class)
                .doesNotHaveBean(ResilienceAnnotationAdvisor.class)
                .doesNotHaveBean(AnnotatedMethodValidator.class));
    }

    @Test
    void timeoutEnabledFalseSwitchesOnlyTimeoutsOff() {
        runner.withPropertyValues("resilience.timeout.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(TimeoutRuntime.class)
                .doesNotHaveBean("timeoutAdvisor")
                .hasSingleBean(AnnotatedMethodValidator.class));
    }

    @Test
    void aUserDefinedRuntimeAndRegistryReplaceTheDefaults() {
        runner.withUserConfiguration(UserBeans.class).run(context -> {
            assertThat(context).hasSingleBean(TimeoutRuntime.class).hasSingleBean(TimeoutConfigRegistry.class);
            assertThat(context.getBean(TimeoutRuntime.class)).isSameAs(context.getBean("myRuntime"));
            assertThat(context.getBean(TimeoutConfigRegistry.class).config(null).timeout())
                    .isEqualTo(Duration.ofSeconds(1));
        });
    }

    @Test
    void defaultsAndNamedInstancesAreBoundFromProperties() {
        runner.withPropertyValues("resilience.timeout.duration=750ms", "resilience.timeout.mode=INTERRUPT",
                "resilience.timeout.instances.inventory.duration=2s",
                "resilience.timeout.instances.payments.mode=OFFLOAD").run(context -> {
                    TimeoutConfigRegistry registry = context.getBean(TimeoutConfigRegistry.class);
                    assertThat(registry.config("").timeout()).isEqualTo(Duration.ofMillis(750));
                    assertThat(registry.config("").mode()).isEqualTo(TimeoutMode.INTERRUPT);
                    assertThat(registry.config("inventory").timeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(registry.config("inventory").mode()).isEqualTo(TimeoutMode.INTERRUPT);
                    assertThat(registry.config("payments").timeout()).isEqualTo(Duration.ofMillis(750));
                    assertThat(registry.config("payments").mode()).isEqualTo(TimeoutMode.OFFLOAD);
                    assertThat(registry.config("unknown").timeout()).isEqualTo(Duration.ofMillis(750));
                });
    }

    @Test
    void anInvalidConfiguredModeFailsTheStart() {
        runner.withPropertyValues("resilience.timeout.mode=DEFAULT").run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("must be OFFLOAD, INTERRUPT or OBSERVE"));
    }

    @Test
    void anInvalidExecutorSizeFailsTheStart() {
        runner.withPropertyValues("resilience.timeout.executor.max-size=0").run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("executor.max-size"));
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeans {

        @Bean
        TimeoutRuntime myRuntime() {
            return TimeoutRuntime.ofDefaults();
        }

        @Bean
        TimeoutConfigRegistry myRegistry() {
            return TimeoutConfigRegistry.ofDefaults();
        }
    }
}
