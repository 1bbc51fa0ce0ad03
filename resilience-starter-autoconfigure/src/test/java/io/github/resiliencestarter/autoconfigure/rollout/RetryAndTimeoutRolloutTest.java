package io.github.resiliencestarter.autoconfigure.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.observability.ObservabilityAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.LiveTuningAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings;
import io.github.resiliencestarter.spring.actuate.ResilienceEndpoint;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ConnectException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Observe mode and rollout of {@code @Retry} and {@code @Timeout} from the properties
 * (docs/rollout.md): an observed retry makes one attempt and counts {@code would_retry}; an
 * observed timeout cuts nothing and counts {@code would_timeout}; per named instance; live, all or
 * nothing; shown by {@code /actuator/resilience}.
 */
class RetryAndTimeoutRolloutTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    RetryAutoConfiguration.class, ObservabilityAutoConfiguration.class,
                    LiveTuningAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("resilience.retry.delay=1ms", "resilience.retry.max-delay=2ms",
                    "management.endpoints.web.exposure.include=*")
            .withBean(Inventory.class);

    static class Inventory {

        private final AtomicInteger attempts = new AtomicInteger();

        private final AtomicInteger otherAttempts = new AtomicInteger();

        int attempts() {
            return attempts.get();
        }

        int otherAttempts() {
            return otherAttempts.get();
        }

        @Retry(name = "inventory", maxAttempts = 3, idempotent = true)
        public String reserve() throws ConnectException {
            attempts.incrementAndGet();
            throw new ConnectException("inventory refused the connection");
        }

        @Retry(maxAttempts = 3, idempotent = true)
        public String release() throws ConnectException {
            otherAttempts.incrementAndGet();
            throw new ConnectException("inventory refused the connection");
        }

        @Timeout
        public String quick() {
            return "quick";
        }

        @Timeout(value = "100ms", mode = TimeoutMode.INTERRUPT)
        public String slow() throws InterruptedException {
            // past the limit: enforced, the interrupt ends it early; observed, it runs to the end
            Thread.sleep(400);
            return "done";
        }
    }

    private static long timed(ApplicationContext context, String metric, String outcome) {
        Timer timer = context.getBean(MeterRegistry.class).find(metric).tag("outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void O1_anObservedRetryMakesOneAttemptAndCountsTheRetryItWasDue() {
        runner.withPropertyValues("resilience.retry.mode=observe").run(context -> {
            Inventory inventory = context.getBean(Inventory.class);

            assertThatThrownBy(inventory::reserve).isInstanceOf(ConnectException.class);

            assertThat(inventory.attempts()).isEqualTo(1);
            assertThat(timed(context, "resilience.retry.calls", "would_retry")).isEqualTo(1);
            assertThat(methodReport(context, "Inventory.reserve", "retry")).containsEntry("mode", "OBSERVE")
                    .containsEntry("rollout", 100.0);
        });
    }

    @Test
    void O1_anObservedTimeoutCutsNothingAndCountsTheCallThatRanPastIt() {
        runner.withPropertyValues("resilience.timeout.mode=observe").run(context -> {
            Inventory inventory = context.getBean(Inventory.class);

            assertThat(inventory.slow()).as("the annotation's INTERRUPT waits until the instance enforces")
                    .isEqualTo("done");

            assertThat(timed(context, "resilience.timeout.calls", "would_timeout")).isEqualTo(1);
            assertThat(methodReport(context, "Inventory.slow", "timeout")).containsEntry("mode", "OBSERVE");
        });
    }

    @Test
    void aNamedRetryInstanceObservesWhileTheOthersEnforce() {
        runner.withPropertyValues("resilience.retry.instances.inventory.mode=observe").run(context -> {
            Inventory inventory = context.getBean(Inventory.class);

            assertThatThrownBy(inventory::reserve).isInstanceOf(ConnectException.class);
            assertThatThrownBy(inventory::release).isInstanceOf(ConnectException.class);

            assertThat(inventory.attempts()).as("observed").isEqualTo(1);
            assertThat(inventory.otherAttempts()).as("enforced").isEqualTo(3);
        });
    }

    @Test
    void modesChangeLiveAndARefusedRolloutChangesNothing() {
        Map<String, Object> live = new HashMap<>(Map.of("resilience.retry.mode", "observe",
                "resilience.timeout.mode", "observe"));
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("live", live))).run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    ResilienceSettings settings = context.getBean(ResilienceSettings.class);
                    assertThat(inventory.slow()).isEqualTo("done");

                    live.put("resilience.retry.mode", "enforce");
                    live.put("resilience.timeout.mode", "interrupt");
                    assertThat(settings.reload()).isTrue();
                    assertThatThrownBy(inventory::slow).isInstanceOf(DeadlineExceededException.class);
                    assertThatThrownBy(inventory::reserve).isInstanceOf(ConnectException.class);
                    assertThat(inventory.attempts()).as("enforced: retried").isEqualTo(3);

                    // a share outside 0..100 beside a valid mode: refused, the timeout keeps enforcing
                    live.put("resilience.timeout.mode", "observe");
                    live.put("resilience.retry.rollout", "-1");
                    assertThat(settings.reload()).isFalse();
                    assertThatThrownBy(inventory::slow).isInstanceOf(DeadlineExceededException.class);
                });
    }

    @Test
    void O1_theLimitGaugeShowsTheSettingsInForceAndNotThoseOfARefusedReload() {
        Map<String, Object> live = new HashMap<>(Map.of("resilience.timeout.duration", "1s"));
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("live", live))).run(context -> {
                    context.getBean(Inventory.class).quick();
                    assertThat(limit(context)).isEqualTo(1.0);

                    // a new limit beside a refused rollout: nothing applies, the gauge keeps 1 s
                    live.put("resilience.timeout.duration", "2s");
                    live.put("resilience.retry.rollout", "-1");
                    assertThat(context.getBean(ResilienceSettings.class).reload()).isFalse();
                    assertThat(limit(context)).isEqualTo(1.0);

                    live.remove("resilience.retry.rollout");
                    assertThat(context.getBean(ResilienceSettings.class).reload()).isTrue();
                    assertThat(limit(context)).isEqualTo(2.0);
                });
    }

    private static double limit(ApplicationContext context) {
        return context.getBean(MeterRegistry.class).get("resilience.timeout.limit").tag("name", "Inventory.quick")
                .gauge().value();
    }

    @Test
    void aTimeoutRolloutOutsideZeroToAHundredFailsTheStartNamingTheProperty() {
        runner.withPropertyValues("resilience.timeout.instances.slow.rollout=101").run(context ->
                assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("instances[slow].rollout")
                        .hasStackTraceContaining("must be between 0 and 100"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> methodReport(ApplicationContext context, String method, String kind) {
        Map<String, Map<String, Map<String, Object>>> methods = (Map<String, Map<String, Map<String, Object>>>)
                context.getBean(ResilienceEndpoint.class).report().get("methods");
        return methods.get(method).get(kind);
    }
}
