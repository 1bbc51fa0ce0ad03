package io.github.resiliencestarter.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.core.StartupRefusedException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A property renamed before 1.0 and still set under its old name refuses the start, naming the
 * new one: ignored, it would change behaviour in silence (a share of 0.1 read as 0.1 %).
 */
class RenamedPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class));

    private void refused(String property, String replacement) {
        runner.withPropertyValues(property).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(StartupRefusedException.class)
                    .hasMessageContaining(property.substring(0, property.indexOf('=')) + " is now " + replacement);
        });
    }

    @Test
    void anOldNameRefusesTheStartNamingTheNewOne() {
        refused("resilience.problem-details.enabled=false", "resilience.problems.enabled");
        refused("resilience.retry.budget.ratio=0.2", "resilience.retry.budget.percent");
        refused("resilience.circuit-breaker.warm-up-start=0.1", "resilience.circuit-breaker.warm-up-start-percent");
    }

    @Test
    void anInstancesOldNameRefusesTheStartInEitherForm() {
        refused("resilience.circuit-breaker.instances.inventory.warm-up-start=0.1",
                "resilience.circuit-breaker.instances.<name>.warm-up-start-percent");
        refused("resilience.circuit-breaker.instances[inventory].warm-up-start=0.1",
                "resilience.circuit-breaker.instances.<name>.warm-up-start-percent");
    }

    @Test
    void theNewNamesStart() {
        runner.withPropertyValues("resilience.problems.enabled=false", "resilience.retry.budget.percent=20",
                "resilience.circuit-breaker.warm-up-start-percent=10",
                "resilience.circuit-breaker.instances.inventory.warm-up-start-percent=10")
                .run(context -> assertThat(context).hasNotFailed());
    }
}
