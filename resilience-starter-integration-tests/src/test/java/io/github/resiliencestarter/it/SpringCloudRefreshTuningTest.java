package io.github.resiliencestarter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.LiveTuningAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings;
import io.github.resiliencestarter.context.TraceContextHolder;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.autoconfigure.RefreshAutoConfiguration;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfiguration;

/**
 * Live tuning as Spring Cloud users trigger it: the real {@code EnvironmentChangeEvent} that
 * {@code /actuator/refresh} publishes for changed keys reloads the starter's settings.
 */
@SpringBootTest(classes = SpringCloudRefreshTuningTest.App.class)
@ContextConfiguration(initializers = SpringCloudRefreshTuningTest.LiveSource.class)
class SpringCloudRefreshTuningTest {

    static final Map<String, Object> LIVE = new ConcurrentHashMap<>(Map.of(
            "resilience.timeout.instances.checkout.duration", "1s"));

    /** A property source the test changes, as a config server or an edited file would. */
    static class LiveSource implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("live", LIVE));
        }
    }

    @SpringBootConfiguration
    @ImportAutoConfiguration({RefreshAutoConfiguration.class, ResilienceAutoConfiguration.class,
            TimeoutAutoConfiguration.class, RetryAutoConfiguration.class, LiveTuningAutoConfiguration.class})
    static class App {

        @Bean
        Checkout checkout() {
            return new Checkout();
        }
    }

    /** A handler whose deadline shows the timeout in force. */
    static class Checkout {

        @Timeout(name = "checkout")
        public long budgetMillis() {
            return TraceContextHolder.current().deadline().remainingMillis();
        }
    }

    @Autowired
    private ApplicationContext context;

    @Autowired
    private Checkout checkout;

    @Autowired
    private ResilienceSettings settings;

    @Test
    void springCloudsChangeEventAppliesTheNewTimeoutToTheNextCall() {
        assertThat(checkout.budgetMillis()).isBetween(1L, 1_000L);

        LIVE.put("resilience.timeout.instances.checkout.duration", "4s");
        context.publishEvent(new EnvironmentChangeEvent(context,
                Set.of("resilience.timeout.instances.checkout.duration")));

        assertThat(settings.generation()).isEqualTo(1);
        assertThat(checkout.budgetMillis()).isBetween(1_001L, 4_000L);

        LIVE.put("spring.application.name", "unrelated");
        context.publishEvent(new EnvironmentChangeEvent(context, Set.of("spring.application.name")));
        assertThat(settings.generation()).isEqualTo(1);
    }
}
