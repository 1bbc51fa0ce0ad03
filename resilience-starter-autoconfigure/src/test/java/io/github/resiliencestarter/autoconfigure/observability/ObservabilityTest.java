package io.github.resiliencestarter.autoconfigure.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.micrometer.ObservedAttempts;
import io.github.resiliencestarter.retry.AttemptTracing;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.spring.actuate.ResilienceEndpoint;
import io.github.resiliencestarter.spring.actuate.ResilienceSettingsInspector;
import io.github.resiliencestarter.testsupport.BootLine;
import io.github.resiliencestarter.testsupport.DisposableRedis;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

class ObservabilityTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class,
                    ObservabilityAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("resilience.retry.delay=1ms", "resilience.retry.max-delay=2ms",
                    "resilience.observability.advisor-min-samples=20", "management.endpoints.web.exposure.include=*");

    private static double count(MeterRegistry registry, String meter, String name, String outcome) {
        var search = registry.find(meter).tag("name", name).tag("outcome", outcome);
        return search.timer() != null ? search.timer().count() : search.counter().count();
    }

    @Test
    void O1_metricsCountEachOutcomeExactly() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);

            orders.create("secret-key-1", 10);
            orders.create("secret-key-1", 10);
            assertThatThrownBy(() -> orders.create("secret-key-1", 99)).isInstanceOf(IdempotencyKeyReusedException.class);
            assertThat(count(registry, "resilience.idempotent.calls", "ORDERS", "executed")).isEqualTo(1);
            assertThat(count(registry, "resilience.idempotent.calls", "ORDERS", "replayed")).isEqualTo(1);
            assertThat(count(registry, "resilience.idempotent.calls", "ORDERS", "key_reused")).isEqualTo(1);

            orders.quick();
            assertThatThrownBy(orders::slow).isInstanceOf(DeadlineExceededException.class);
            assertThat(count(registry, "resilience.timeout.calls", "Orders.quick", "success")).isEqualTo(1);
            assertThat(count(registry, "resilience.timeout.calls", "Orders.slow", "timeout")).isEqualTo(1);

            orders.flaky();
            assertThatThrownBy(orders::broken).isInstanceOf(RetryableException.class);
            assertThat(count(registry, "resilience.retry.calls", "Orders.flaky", "success_with_retry")).isEqualTo(1);
            assertThat(count(registry, "resilience.retry.calls", "Orders.broken", "failed_with_retry")).isEqualTo(1);
            assertThat(registry.find("resilience.retry.attempts").tag("name", "Orders.flaky").counter().count())
                    .isEqualTo(2);
            // three creates and the one broken() call
            assertThat(registry.find("resilience.idempotent.store").tag("operation", "claim").timer().count())
                    .isEqualTo(4);
        });
    }

    @Test
    void O1_noMeterCarriesAHighCardinalityTag() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("trace-abc-123"))) {
                for (int i = 0; i < 20; i++) {
                    orders.create("secret-key-" + i, i);
                }
            }
            Set<String> allowedKeys = Set.of("name", "outcome", "operation", "store");
            List<Meter> meters = context.getBean(MeterRegistry.class).getMeters().stream()
                    .filter(meter -> meter.getId().getName().startsWith("resilience.")).toList();
            assertThat(meters).isNotEmpty();
            for (Meter meter : meters) {
                for (Tag tag : meter.getId().getTags()) {
                    assertThat(allowedKeys).contains(tag.getKey());
                    assertThat(tag.getValue()).doesNotContain("secret-key").doesNotContain("trace-abc");
                }
            }
            assertThat(meters.stream().map(meter -> meter.getId().getTag("name")).distinct().count())
                    .isLessThan(10);
        });
    }

    /** Enough successful calls for the advisor (its minimum is set to 20 above). */
    private static final int SAMPLES = 20;

    /**
     * Makes {@link #SAMPLES} calls at once, each on its own thread: the advisor gets its samples in
     * the time of one call, and every call must succeed.
     */
    private static void sample(Callable<String> call) throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(SAMPLES);
        try {
            List<Future<String>> calls = new ArrayList<>();
            for (int i = 0; i < SAMPLES; i++) {
                calls.add(callers.submit(call));
            }
            for (Future<String> result : calls) {
                result.get(60, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void T2_theAdvisorWarnsForATimeoutBelowItsObservedP99WithHeadroomAndNotForOneAboveIt() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            sample(orders::tight);
            sample(orders::quick);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(count(registry, "resilience.timeout.calls", "Orders.tight", "success")).isEqualTo(SAMPLES);
            assertThat(count(registry, "resilience.timeout.calls", "Orders.quick", "success")).isEqualTo(SAMPLES);

            List<String> warnings = context.getBean(ResilienceSettingsInspector.class).warnings();
            assertThat(warnings).anySatisfy(warning -> assertThat(warning).startsWith("T-2: @Timeout of Orders.tight")
                    .contains("is 2000 ms"));
            assertThat(warnings).noneSatisfy(warning -> assertThat(warning).startsWith("T-2: @Timeout of Orders.quick"));
        });
    }

    @Test
    void TP1_aTimeoutBelowTheP99IsReportedAsFalseTimeoutsWithATimeoutAboveTheP99ToUseInstead() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            sample(orders::tight);

            String warning = context.getBean(ResilienceSettingsInspector.class).warnings().stream()
                    .filter(line -> line.startsWith("T-2: @Timeout of Orders.tight")).findFirst().orElseThrow();
            Matcher figures = Pattern.compile("observed p99 of (\\d+) ms over (\\d+) calls: expect false timeouts; "
                    + "consider (\\d+) ms").matcher(warning);
            assertThat(figures.find()).as(warning).isTrue();
            long p99 = Long.parseLong(figures.group(1));
            long suggested = Long.parseLong(figures.group(3));
            // the calls' own p99, within the histogram's precision, and below the timeout they all met
            assertThat(p99).as("p99 of calls sleeping %d ms", Orders.TIGHT_WORK_MILLIS)
                    .isBetween(Math.round(Orders.TIGHT_WORK_MILLIS * 0.9), Math.round(2_000 * 1.1));
            assertThat(Long.parseLong(figures.group(2))).isEqualTo(SAMPLES);
            assertThat(suggested).isGreaterThanOrEqualTo(Math.round(p99 * 1.3) - 1).isGreaterThan(2_000);
        });
    }

    @Test
    void O5_whatCanBeCheckedWithoutCallsIsCheckedWhileTheContextStarts() {
        // a retried write nothing makes idempotent: the start itself fails, before any call
        runner.withBean(UnsafeWrites.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Retry on " + UnsafeWrites.class.getName() + ".create(String)"));

        // what only deserves a warning is logged by the start, before anyone asks the advisor
        Logger advisorLog = (Logger) LoggerFactory.getLogger(ResilienceSettingsInspector.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        advisorLog.addAppender(logged);
        try {
            runner.withBean(Orders.class).run(context -> {
                assertThat(context).hasNotFailed();
                List<String> atStart = logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
                assertThat(atStart).anySatisfy(line -> assertThat(line).startsWith("R-3: @Retry on Orders.overlong"));
                assertThat(atStart).anySatisfy(line -> assertThat(line).startsWith("R-1: @Retry on Orders.flaky"));
            });
        } finally {
            advisorLog.detachAppender(logged);
        }
    }

    @Test
    void R3_andR1_theAdvisorWarnsAboutRetriesThatCannotFitAndDeclaredOnlyIdempotency() {
        runner.withBean(Orders.class).run(context -> {
            List<String> warnings = context.getBean(ResilienceSettingsInspector.class).warnings();
            assertThat(warnings).anySatisfy(warning -> assertThat(warning).startsWith("R-3: @Retry on Orders.overlong"));
            assertThat(warnings).anySatisfy(warning -> assertThat(warning).startsWith("R-1: @Retry on Orders.flaky"));
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void theEndpointListsEveryAnnotatedMethodWithItsResolvedSettings() {
        runner.withBean(Orders.class).withPropertyValues("resilience.timeout.mode=INTERRUPT").run(context -> {
            Map<String, Object> report = context.getBean(ResilienceEndpoint.class).report();
            Map<String, Map<String, Object>> methods = (Map<String, Map<String, Object>>) report.get("methods");
            assertThat(methods).containsKeys("Orders.create", "Orders.quick", "Orders.slow", "Orders.flaky");
            assertThat((Map<String, Object>) methods.get("Orders.quick").get("timeout"))
                    .containsEntry("timeoutMs", 1000L).containsEntry("mode", "INTERRUPT");
            assertThat((Map<String, Object>) methods.get("Orders.create").get("idempotent"))
                    .containsEntry("name", "ORDERS").containsEntry("key", "#key").containsEntry("onInProgress", "WAIT");
            assertThat((Map<String, Object>) methods.get("Orders.flaky").get("retry"))
                    .containsEntry("maxAttempts", 3).containsEntry("declaredIdempotent", true);
            assertThat(report.get("idempotencyStore")).isEqualTo("InMemoryIdempotencyStore");
        });
    }

    @Test
    void theStoreHealthGoesDownWhenRedisStopsAndUpWhenItIsBack() throws Exception {
        try (DisposableRedis server = DisposableRedis.start()) {
            StringRedisTemplate template = server.template();
            runner.withConfiguration(AutoConfigurations.of(BootLine.starterHealthAutoConfiguration()))
                    .withBean(IdempotencyStore.class, () -> new RedisIdempotencyStore(template))
                    // the store is in use (and checked) once an @Idempotent method exists
                    .withBean(Orders.class).run(context -> {
                        Object health = context.getBean("resilienceIdempotencyHealthIndicator");
                        assertThat(BootLine.healthStatus(health)).isEqualTo("UP");
                        server.kill();
                        assertThat(BootLine.healthStatus(health)).isEqualTo("DOWN");
                        server.resume();
                        String status = "DOWN";
                        long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                        while (!status.equals("UP") && System.nanoTime() < until) {
                            Thread.sleep(200);
                            status = BootLine.healthStatus(health);
                        }
                        assertThat(status).isEqualTo("UP");
                    });
        }
    }

    @Test
    void theStoreHealthIsDegradedNotDownWhenRequestsFailOpen() throws Exception {
        try (DisposableRedis server = DisposableRedis.start()) {
            StringRedisTemplate template = server.template();
            runner.withConfiguration(AutoConfigurations.of(BootLine.starterHealthAutoConfiguration()))
                    .withPropertyValues("resilience.idempotent.fail-open=true")
                    .withBean(IdempotencyStore.class, () -> new RedisIdempotencyStore(template))
                    // the store is in use (and checked) once an @Idempotent method exists
                    .withBean(Orders.class).run(context -> {
                        Object health = context.getBean("resilienceIdempotencyHealthIndicator");
                        server.kill();
                        try {
                            assertThat(BootLine.healthStatus(health)).isEqualTo("DEGRADED");
                        } finally {
                            server.resume();
                        }
                    });
        }
    }

    @Test
    void theStoreHealthIndicatorCanBeSwitchedOffLikeBootsOwn() {
        runner.withConfiguration(AutoConfigurations.of(BootLine.starterHealthAutoConfiguration()))
                .withPropertyValues("management.health.resilienceIdempotency.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("resilienceIdempotencyHealthIndicator"));
    }

    @Test
    void O1_eachRetryAttemptIsAnObservationOnlyWhereATracerRecordsSpans() {
        List<String> observed = new CopyOnWriteArrayList<>();
        ApplicationContextRunner observing = runner.withBean(Orders.class)
                .withBean(ObservationRegistry.class, () -> recordingStarts(observed));
        // a tracer that records spans: any but Micrometer's no-op one; its methods are never called
        Tracer recording = (Tracer) Proxy.newProxyInstance(Tracer.class.getClassLoader(),
                new Class<?>[] {Tracer.class}, (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName());
                });

        observing.withBean(Tracer.class, () -> recording).run(context -> {
            assertThat(context.getBean(AttemptTracing.class)).isInstanceOf(ObservedAttempts.class);
            assertThat(context.getBean(Orders.class).flaky()).isEqualTo("flaky");
            assertThat(observed).containsExactly(ObservedAttempts.NAME, ObservedAttempts.NAME);
        });
        observed.clear();
        observing.run(context -> {
            assertThat(context.getBean(AttemptTracing.class)).isSameAs(AttemptTracing.NONE);
            assertThat(context.getBean(Orders.class).flaky()).isEqualTo("flaky");
        });
        observing.withBean(Tracer.class, () -> Tracer.NOOP).run(context -> {
            assertThat(context.getBean(AttemptTracing.class)).isSameAs(AttemptTracing.NONE);
            assertThat(context.getBean(Orders.class).flaky()).isEqualTo("flaky");
        });
        assertThat(observed).as("no timer sample per attempt without spans").isEmpty();
        // an application's own choice stands, tracer or not
        observing.withBean(Tracer.class, () -> recording).withBean(AttemptTracing.class, () -> AttemptTracing.NONE)
                .run(context -> assertThat(context.getBean(AttemptTracing.class)).isSameAs(AttemptTracing.NONE));
    }

    /** An observation registry whose one handler records the name of every observation started. */
    private static ObservationRegistry recordingStarts(List<String> names) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStart(Observation.Context context) {
                names.add(context.getName());
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        return registry;
    }

    static class Orders {

        private final AtomicInteger flakyCalls = new AtomicInteger();

        @Idempotent(key = "#key", name = "ORDERS")
        public String create(String key, int amount) {
            return "order " + amount;
        }

        @Timeout("1s")
        public String quick() {
            return "quick";
        }

        @Timeout("100ms")
        public String slow() throws InterruptedException {
            Thread.sleep(2_000);
            return "slow";
        }

        /** 85 % of the timeout: below it by 300 ms, a loaded machine's late wake-up, but 1.3 x it is above. */
        static final long TIGHT_WORK_MILLIS = 1_700;

        @Timeout(value = "2s", mode = io.github.resiliencestarter.timeout.TimeoutMode.INTERRUPT)
        public String tight() throws InterruptedException {
            Thread.sleep(TIGHT_WORK_MILLIS);
            return "tight";
        }

        @Retry(idempotent = true)
        public String flaky() {
            if (flakyCalls.incrementAndGet() % 2 == 1) {
                throw new RetryableException("BUSY", "busy");
            }
            return "flaky";
        }

        @Retry(idempotent = true, maxAttempts = 3)
        @Idempotent(key = "'broken'")
        public String broken() {
            throw new RetryableException("DOWN", "down");
        }

        @Timeout("100ms")
        @Retry(maxAttempts = 5, delay = "100ms", maxDelay = "1s", idempotent = true)
        public String overlong() {
            return "overlong";
        }
    }

    static class UnsafeWrites {

        @Retry
        public String create(String orderNo) {
            return orderNo;
        }
    }
}
