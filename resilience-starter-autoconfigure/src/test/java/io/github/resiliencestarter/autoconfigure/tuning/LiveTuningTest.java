package io.github.resiliencestarter.autoconfigure.tuning;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.context.TraceContextHolder;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;

/**
 * Timeouts and retries retuned while calls run: every call runs with one set of settings, the
 * next calls take the new ones, and an invalid change leaves every old setting in force.
 */
class LiveTuningTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TimeoutAutoConfiguration.class, RetryAutoConfiguration.class, LiveTuningAutoConfiguration.class))
            .withBean(Inventory.class);

    /** A downstream call that always times out, and a handler that reports its deadline. */
    static class Inventory {

        /** Per calling thread: a thread makes one call at a time, so differences count one call's attempts. */
        private final ThreadLocal<int[]> attempts = ThreadLocal.withInitial(() -> new int[1]);

        @Retry(name = "live", idempotent = true)
        public String reserve() throws SocketTimeoutException {
            attempts.get()[0]++;
            throw new SocketTimeoutException("read timed out");
        }

        /** Attempts of one call made by this thread. */
        public int attemptsOf(Runnable call) {
            int before = attempts.get()[0];
            call.run();
            return attempts.get()[0] - before;
        }

        @Timeout(name = "live")
        public long budgetMillis() {
            return TraceContextHolder.current().deadline().remainingMillis();
        }
    }

    private static Map<String, Object> settings(int maxAttempts, String timeout) {
        Map<String, Object> values = new ConcurrentHashMap<>();
        values.put("resilience.retry.instances.live.max-attempts", maxAttempts);
        values.put("resilience.retry.instances.live.delay", "0ms");
        values.put("resilience.retry.instances.live.budget-enabled", false);
        values.put("resilience.timeout.instances.live.duration", timeout);
        return values;
    }

    @Test
    void changedSettingsApplyToTheNextCallsAndNoCallSeesAMix() throws Exception {
        Map<String, Object> live = settings(2, "1s");
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("live", live))).run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    ResilienceSettings settings = context.getBean(ResilienceSettings.class);
                    assertThat(attempts(inventory)).isEqualTo(2);
                    assertThat(inventory.budgetMillis()).isBetween(1L, 1_000L);

                    ExecutorService callers = Executors.newFixedThreadPool(4);
                    Queue<Integer> seen = new ConcurrentLinkedQueue<>();
                    AtomicBoolean running = new AtomicBoolean(true);
                    CountDownLatch warmedUp = new CountDownLatch(4);
                    for (int i = 0; i < 4; i++) {
                        callers.execute(() -> {
                            warmedUp.countDown();
                            while (running.get()) {
                                seen.add(attempts(inventory));
                            }
                        });
                    }
                    assertThat(warmedUp.await(10, TimeUnit.SECONDS)).isTrue();
                    live.putAll(settings(4, "5s"));
                    assertThat(settings.reload()).isTrue();
                    int afterReload = seen.size();
                    long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (seen.size() < afterReload + 200 && System.nanoTime() < waitUntil) {
                        Thread.onSpinWait();
                    }
                    running.set(false);
                    callers.shutdown();
                    assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

                    assertThat(seen).isNotEmpty().allSatisfy(count -> assertThat(count).isIn(2, 4));
                    assertThat(attempts(inventory)).isEqualTo(4);
                    assertThat(inventory.budgetMillis()).isBetween(1_001L, 5_000L);
                    assertThat(settings.generation()).isEqualTo(1);
                    assertThat(settings.lastRejection()).isNull();
                });
    }

    @Test
    void anInvalidValueIsRefusedAndEveryOldSettingStays() {
        Map<String, Object> live = settings(3, "1s");
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("live", live))).run(context -> {
                    Inventory inventory = context.getBean(Inventory.class);
                    ResilienceSettings settings = context.getBean(ResilienceSettings.class);
                    // a valid timeout change together with an invalid retry change: neither applies
                    live.put("resilience.timeout.instances.live.duration", "5s");
                    live.put("resilience.retry.instances.live.max-attempts", 0);

                    assertThat(settings.reload()).isFalse();

                    assertThat(settings.lastRejection()).contains("resilience.retry.instances[live].max-attempts",
                            "must be at least 1");
                    assertThat(settings.generation()).isZero();
                    assertThat(attempts(inventory)).isEqualTo(3);
                    assertThat(inventory.budgetMillis()).isBetween(1L, 1_000L);
                });
    }

    @Test
    void aLoweredCapThatAnAnnotationExceedsIsRefusedToo() {
        Map<String, Object> live = settings(3, "1s");
        runner.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("live", live))).run(context -> {
                    live.put("resilience.retry.max-attempts-cap", 2);
                    ResilienceSettings settings = context.getBean(ResilienceSettings.class);

                    assertThat(settings.reload()).isFalse();
                    assertThat(settings.lastRejection()).contains("max-attempts");
                    assertThat(attempts(context.getBean(Inventory.class))).isEqualTo(3);
                });
    }

    private static int attempts(Inventory inventory) {
        return inventory.attemptsOf(() -> {
            try {
                inventory.reserve();
            } catch (SocketTimeoutException expected) {
                // every attempt times out; only the count matters
            }
        });
    }
}
