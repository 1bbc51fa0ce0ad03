package io.github.resiliencestarter.autoconfigure.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.http.OutboundHttpAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.propagation.PropagationAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.web.ProblemDetailsAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.web.TraceContextAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.spring.actuate.ResilienceEndpoint;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Every optional library is optional: the starter starts without Actuator, Micrometer, Redis or JDBC. */
class OptionalLibrariesTest {

    @Test
    void theStarterStartsWithoutActuatorMicrometerRedisJdbcWebfluxOrFeign() {
        new ApplicationContextRunner()
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate", "io.micrometer",
                        "org.springframework.data.redis", "org.springframework.jdbc", "org.springframework.web.reactive",
                        "feign"))
                .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                        TimeoutAutoConfiguration.class, IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class,
                        TraceContextAutoConfiguration.class, ProblemDetailsAutoConfiguration.class,
                        OutboundHttpAutoConfiguration.class, PropagationAutoConfiguration.class,
                        ObservabilityAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(IdempotencyStore.class)
                            .doesNotHaveBean(ResilienceEndpoint.class);
                    context.getBean(IdempotencyStore.class).ping();
                });
    }
}
