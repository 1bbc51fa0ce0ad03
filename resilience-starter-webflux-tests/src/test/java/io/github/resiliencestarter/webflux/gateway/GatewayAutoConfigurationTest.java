package io.github.resiliencestarter.webflux.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.gateway.GatewayAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.spring.gateway.DeadlineGatewayFilterFactory;
import io.github.resiliencestarter.spring.gateway.IdempotencyKeyGatewayFilterFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;

/** When the gateway route filters are defined, and when not. */
class GatewayAutoConfigurationTest {

    private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(ResilienceAutoConfiguration.class,
            IdempotencyAutoConfiguration.class, GatewayAutoConfiguration.class);

    private final ReactiveWebApplicationContextRunner gateway = new ReactiveWebApplicationContextRunner()
            .withConfiguration(CONFIGURATIONS).withPropertyValues("resilience.idempotent.store=memory");

    @Test
    void aReactiveGatewayGetsBothRouteFilters() {
        gateway.run(context -> assertThat(context).hasSingleBean(DeadlineGatewayFilterFactory.class)
                .hasSingleBean(IdempotencyKeyGatewayFilterFactory.class));
    }

    @Test
    void withoutTheGatewayNothingIsDefined() {
        gateway.withClassLoader(new FilteredClassLoader(AbstractGatewayFilterFactory.class)).run(context -> assertThat(
                context).hasNotFailed().doesNotHaveBean(DeadlineGatewayFilterFactory.class)
                .doesNotHaveBean(IdempotencyKeyGatewayFilterFactory.class));
    }

    @Test
    void aServletApplicationGetsNone() {
        new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
                .withPropertyValues("resilience.idempotent.store=memory").run(context -> assertThat(context)
                        .hasNotFailed().doesNotHaveBean(DeadlineGatewayFilterFactory.class));
    }

    @Test
    void withTheWholeStarterOffNothingIsDefined() {
        gateway.withPropertyValues("resilience.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(DeadlineGatewayFilterFactory.class)
                .doesNotHaveBean(IdempotencyKeyGatewayFilterFactory.class));
    }

    @Test
    void anApplicationsOwnFactoryWins() {
        DeadlineGatewayFilterFactory own = new DeadlineGatewayFilterFactory(Duration.ofMillis(5), "urn:own:");
        gateway.withBean(DeadlineGatewayFilterFactory.class, () -> own).run(context -> assertThat(context)
                .getBean(DeadlineGatewayFilterFactory.class).isSameAs(own));
    }
}
