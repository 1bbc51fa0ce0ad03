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

/**
 * Every optional library is optional: the starter starts, and its annotations work, in a plain
 * application without Actuator, Micrometer, Redis, JDBC, the web stack, Spring Security or Feign.
 */
class OptionalLibrariesTest {

    @Test
    void theStarterStartsWithoutActuatorMicrometerRedisJdbcWebSecurityOrFeign() {
        new ApplicationContextRunner()
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate", "io.micrometer",
                        "org.springframework.data.redis", "org.springframework.jdbc", "org.springframework.web",
                        "org.springframework.http", "jakarta.servlet", "org.springframework.security", "feign"))
                .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                        TimeoutAutoConfiguration.class, IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class,
                        TraceContextAutoConfiguration.class, ProblemDetailsAutoConfiguration.class,
                        OutboundHttpAutoConfiguration.class, PropagationAutoConfiguration.class,
                        ObservabilityAutoConfiguration.class))
                .withBean(Service.class)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(IdempotencyStore.class)
                            .doesNotHaveBean(ResilienceEndpoint.class);
                    Service service = context.getBean(Service.class);
                    assertThat(service.create("k-1")).isEqualTo(service.create("k-1"));
                    assertThat(service.calls()).isEqualTo(1);
                });
    }

    public static class Service {

        private final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();

        public int calls() {
            return calls.get();
        }

        @io.github.resiliencestarter.annotation.Timeout("1s")
        @io.github.resiliencestarter.annotation.Idempotent(key = "#key")
        @io.github.resiliencestarter.annotation.Retry
        public String create(String key) {
            return key + "-" + calls.incrementAndGet();
        }
    }
}
