package io.github.resiliencestarter.autoconfigure.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.spring.actuate.ResilienceEndpoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;

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
                        "org.springframework.http", "jakarta.servlet", "org.springframework.security", "feign",
                        "org.springframework.cloud"))
                // every auto-configuration the starter registers, the Boot-line bridges included: a batch
                // application without spring-web once failed in the Boot 3 HTTP client bridge
                .withConfiguration(AutoConfigurations.of(starterAutoConfigurations()))
                .withBean(Service.class)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(IdempotencyStore.class)
                            .doesNotHaveBean(ResilienceEndpoint.class);
                    // a matched configuration whose types need spring-web fails to load where it is absent
                    assertThat(context.getBeanDefinitionNames())
                            .noneMatch(name -> name.endsWith("RestClientPropagation"))
                            .noneMatch(name -> name.endsWith("WebClientPropagation"));
                    Service service = context.getBean(Service.class);
                    assertThat(service.create("k-1")).isEqualTo(service.create("k-1"));
                    assertThat(service.calls()).isEqualTo(1);
                });
    }

    private static Class<?>[] starterAutoConfigurations() {
        List<Class<?>> classes = new ArrayList<>();
        for (String name : ImportCandidates.load(AutoConfiguration.class, OptionalLibrariesTest.class.getClassLoader())) {
            if (name.startsWith("io.github.resiliencestarter.")) {
                classes.add(ClassUtils.resolveClassName(name, OptionalLibrariesTest.class.getClassLoader()));
            }
        }
        assertThat(classes).hasSizeGreaterThan(10);
        return classes.toArray(Class<?>[]::new);
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
