package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.observability.ObservabilityAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.LiveTuningAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings;
import io.github.resiliencestarter.spring.actuate.ResilienceEndpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Observe mode and percentage rollout of {@code @Idempotent} (docs/rollout.md): duplicates of an
 * observed name run and are counted as what enforcement would have done; a rollout enforces a
 * stable share of keys, the same keys on every instance; both change live, all or nothing.
 */
class IdempotencyRolloutTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class,
                    ObservabilityAutoConfiguration.class, LiveTuningAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("resilience.idempotent.store=memory", "management.endpoints.web.exposure.include=*")
            .withBean(Orders.class);

    static class Orders {

        private final AtomicInteger executions = new AtomicInteger();

        int executions() {
            return executions.get();
        }

        @Idempotent(key = "#order", name = "ORDER_CREATE")
        public String create(String order) {
            return order + " " + executions.incrementAndGet();
        }
    }

    private static double calls(ApplicationContext context, String outcome) {
        var counter = context.getBean(MeterRegistry.class).find("resilience.idempotent.calls")
                .tag("name", "ORDER_CREATE").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void O1_inObserveModeDuplicatesExecuteAndWouldReplayCountsThemExactly() {
        runner.withPropertyValues("resilience.idempotent.mode=observe").run(context -> {
            Orders orders = context.getBean(Orders.class);
            for (int key = 0; key < 10; key++) {
                for (int copy = 0; copy < 3; copy++) {
                    orders.create("order-" + key);
                }
            }

            assertThat(orders.executions()).isEqualTo(30);
            assertThat(calls(context, "executed")).isEqualTo(10);
            assertThat(calls(context, "would_replay")).isEqualTo(20);
            assertThat(calls(context, "replayed")).isZero();
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Map<String, Object>>> methods = (Map<String, Map<String, Map<String, Object>>>)
                    context.getBean(ResilienceEndpoint.class).report().get("methods");
            assertThat(methods.get("Orders.create").get("idempotent")).containsEntry("mode", "OBSERVE")
                    .containsEntry("rollout", 100.0);
        });
    }

    /** The keys whose duplicate was replayed (enforced) rather than run again (observed). */
    private static Set<String> enforcedKeys(ApplicationContext context, int keys) {
        Orders orders = context.getBean(Orders.class);
        Set<String> enforced = new TreeSet<>();
        for (int key = 0; key < keys; key++) {
            String order = "order-" + key;
            String first = orders.create(order);
            if (orders.create(order).equals(first)) {
                enforced.add(order);
            }
        }
        return enforced;
    }

    @Test
    void aTwentyPercentRolloutEnforcesAStableShareOfKeysTheSameOnTwoInstances() {
        ApplicationContextRunner rolledOut = runner.withPropertyValues("resilience.idempotent.rollout=20");
        rolledOut.run(first -> rolledOut.run(second -> {
            Set<String> onFirst = enforcedKeys(first, 1000);
            Set<String> onSecond = enforcedKeys(second, 1000);

            assertThat(onFirst).hasSizeBetween(150, 250);
            assertThat(onSecond).isEqualTo(onFirst);
            assertThat(calls(first, "replayed")).isEqualTo(onFirst.size());
            assertThat(calls(first, "would_replay")).isEqualTo(1000 - onFirst.size());
        }));
    }

    @Test
    void aNamedInstanceOverridesTheDefaultMode() {
        runner.withPropertyValues("resilience.idempotent.mode=observe",
                "resilience.idempotent.instances.ORDER_CREATE.mode=enforce").run(context -> {
                    Orders orders = context.getBean(Orders.class);
                    orders.create("A");
                    orders.create("A");
                    assertThat(orders.executions()).isEqualTo(1);
                });
    }

    @Test
    void modeAndRolloutChangeLiveAndARefusedValueChangesNothing() {
        Map<String, Object> live = new HashMap<>(Map.of("resilience.idempotent.mode", "enforce"));
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("live", live))).run(context -> {
                    Orders orders = context.getBean(Orders.class);
                    ResilienceSettings settings = context.getBean(ResilienceSettings.class);
                    orders.create("A");
                    orders.create("A");
                    assertThat(orders.executions()).as("enforced: replayed").isEqualTo(1);

                    live.put("resilience.idempotent.mode", "observe");
                    assertThat(settings.reload()).isTrue();
                    orders.create("A");
                    assertThat(orders.executions()).as("observed: ran").isEqualTo(2);

                    // a share outside 0..100 beside a valid mode: refused, and the mode stays observe
                    live.put("resilience.idempotent.mode", "enforce");
                    live.put("resilience.idempotent.rollout", "150");
                    assertThat(settings.reload()).isFalse();
                    orders.create("A");
                    assertThat(orders.executions()).as("still observed").isEqualTo(3);
                });
    }

    @Test
    void aRolloutOutsideZeroToAHundredFailsTheStartNamingTheProperty() {
        runner.withPropertyValues("resilience.idempotent.instances.ORDER_CREATE.rollout=101").run(context ->
                assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("instances[ORDER_CREATE].rollout")
                        .hasStackTraceContaining("must be between 0 and 100"));
    }
}
