package io.github.resiliencestarter.autoconfigure.tuning;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.ttl.TransmittableThreadLocal;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.spring.aop.ResilienceAdvisorOrder;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.assertj.core.api.ThrowingConsumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.config.BeanDefinition;
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

    /** One method under both annotations: each call records its attempts and its deadline's budget. */
    static class Warehouse {

        /**
         * Per call in progress, its attempts and last budget (ms); transmitted, since an OFFLOAD
         * timeout runs the attempts on another thread.
         */
        static final ThreadLocal<long[]> CALL = new TransmittableThreadLocal<>();

        @Timeout(name = "live")
        @Retry(name = "live", idempotent = true)
        public void restock() throws SocketTimeoutException {
            long[] seen = CALL.get();
            seen[0]++;
            seen[1] = TraceContextHolder.current().deadline().remainingMillis();
            throw new SocketTimeoutException("read timed out");
        }
    }

    /** Attempts and budget (ms) of one call through the proxy, also kept in {@code calls}. */
    private static long[] restockOnce(Warehouse warehouse, Queue<long[]> calls) {
        long[] seen = new long[2];
        Warehouse.CALL.set(seen);
        try {
            warehouse.restock();
        } catch (SocketTimeoutException expected) {
            // every attempt fails; what the call saw is the point
        } finally {
            Warehouse.CALL.remove();
        }
        calls.add(seen);
        return seen;
    }

    /**
     * An application's own advice between {@code @Timeout}'s and {@code @Retry}'s (an audit, say):
     * a call it is told to hold waits there, after the timeout read its settings and before the
     * retry reads its own.
     */
    static class HoldBetweenTimeoutAndRetry implements MethodInterceptor {

        final CountDownLatch held = new CountDownLatch(1);

        final CountDownLatch release = new CountDownLatch(1);

        final AtomicBoolean holdNext = new AtomicBoolean();

        @Override
        public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
            if (holdNext.compareAndSet(true, false)) {
                held.countDown();
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            }
            return invocation.proceed();
        }
    }

    @Test
    void oneCallWithTimeoutAndRetryReadsBothSettingsFromOneReload() throws Exception {
        Map<String, Object> live = settings(2, "1s");
        HoldBetweenTimeoutAndRetry hold = new HoldBetweenTimeoutAndRetry();
        DefaultPointcutAdvisor between = new DefaultPointcutAdvisor(
                AnnotationMatchingPointcut.forMethodAnnotation(Retry.class), hold);
        between.setOrder(ResilienceAdvisorOrder.TIMEOUT + 1);
        runner.withBean(Warehouse.class)
                .withBean("holdBetweenTimeoutAndRetry", DefaultPointcutAdvisor.class, () -> between,
                        definition -> definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE))
                .withInitializer(context -> context.getEnvironment().getPropertySources()
                        .addFirst(new MapPropertySource("live", live))).run(context -> {
                            Warehouse warehouse = context.getBean(Warehouse.class);
                            Queue<long[]> calls = new ConcurrentLinkedQueue<>();
                            ResilienceSettings settings = context.getBean(ResilienceSettings.class);
                            assertThat(restockOnce(warehouse, calls)).as("before the reload").satisfies(oldSettings());

                            // a call parked after @Timeout read "1s", before @Retry reads its attempts
                            hold.holdNext.set(true);
                            CompletableFuture<long[]> straddling = CompletableFuture.supplyAsync(
                                    () -> restockOnce(warehouse, calls));
                            assertThat(hold.held.await(10, TimeUnit.SECONDS)).isTrue();
                            live.putAll(settings(4, "5s"));
                            assertThat(settings.reload()).isTrue();
                            hold.release.countDown();

                            // the old generation whole: 2 attempts under a budget of at most 1 s
                            assertThat(straddling.get(30, TimeUnit.SECONDS)).as("the call that straddled the reload")
                                    .satisfies(oldSettings());
                            assertThat(restockOnce(warehouse, calls)).as("after the reload").satisfies(newSettings());

                            // and under load: four callers through a second reload, each call one generation
                            ExecutorService callers = Executors.newFixedThreadPool(4);
                            AtomicBoolean running = new AtomicBoolean(true);
                            CountDownLatch started = new CountDownLatch(4);
                            for (int i = 0; i < 4; i++) {
                                callers.execute(() -> {
                                    started.countDown();
                                    while (running.get()) {
                                        restockOnce(warehouse, calls);
                                    }
                                });
                            }
                            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                            live.putAll(settings(2, "1s"));
                            assertThat(settings.reload()).isTrue();
                            running.set(false);
                            callers.shutdown();
                            assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
                            assertThat(calls).allSatisfy(seen -> assertThat(seen).satisfiesAnyOf(
                                    oldSettings(), newSettings()));
                            assertThat(settings.generation()).isEqualTo(2);
                        });
    }

    /** 2 attempts, each under the 1 s timeout's budget. */
    private static ThrowingConsumer<long[]> oldSettings() {
        return seen -> {
            assertThat(seen[0]).as("attempts").isEqualTo(2);
            assertThat(seen[1]).as("budget in ms").isBetween(1L, 1_000L);
        };
    }

    /** 4 attempts, the last still under a budget above 1 s (the 5 s timeout). */
    private static ThrowingConsumer<long[]> newSettings() {
        return seen -> {
            assertThat(seen[0]).as("attempts").isEqualTo(4);
            assertThat(seen[1]).as("budget in ms").isBetween(1_001L, 5_000L);
        };
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
