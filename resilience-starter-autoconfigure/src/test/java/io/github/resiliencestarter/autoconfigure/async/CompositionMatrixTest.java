package io.github.resiliencestarter.autoconfigure.async;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import reactor.core.publisher.Mono;

/**
 * The annotations combined, on every execution model and every store: {blocking,
 * {@code CompletableFuture}, {@code Mono}} × {{@code @Timeout}, + {@code @Idempotent}, +
 * {@code @Retry}, + a fallback, + a hedge} × {memory, Redis, JDBC}. For each, work that never ends
 * by itself: the caller is answered at the deadline (the fallback's result, or a deadline error).
 * Every attempt that started is cancelled (interrupted, or its future or subscription cancelled),
 * and the idempotency key is free again within the deadline plus the lease margin (released after
 * an interrupted blocking call) — except under {@code @Idempotent} on a future or a Mono: a
 * cancelled future says nothing of the work behind it, so that work goes on uncancelled and its
 * key stays claimed past the deadline plus the margin, for its outcome to be recorded when it comes.
 */
class CompositionMatrixTest {

    private static final List<String> MODELS = List.of("blocking", "future", "mono");

    private static final List<String> STACKS = List.of("T", "TI", "TIR", "TIRF", "TIRFH");

    private static final long DEADLINE_MILLIS = 500;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class))
            .withPropertyValues("resilience.retry.delay=20ms", "resilience.retry.max-delay=40ms")
            .withBean(Matrix.class);

    /** Each context gets clients of its own: closing it closes them, never the fixtures other tests share. */
    private ApplicationContextRunner on(String store) {
        ApplicationContextRunner chosen = runner.withPropertyValues("resilience.idempotent.store=" + store);
        return switch (store) {
            case "redis" -> chosen.withBean(RedisConnectionFactory.class, CompositionMatrixTest::redisFactory);
            case "jdbc" -> chosen.withBean(DataSource.class, CompositionMatrixTest::mariaDb)
                    .withPropertyValues("resilience.idempotent.jdbc.initialize-schema=always");
            default -> chosen;
        };
    }

    private static LettuceConnectionFactory redisFactory() {
        URI uri = URI.create(RealServers.redisUrl());
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
        factory.afterPropertiesSet();
        return factory;
    }

    private static DataSource mariaDb() {
        RealServers.Jdbc settings = RealServers.jdbc();
        return new DriverManagerDataSource(settings.url(), settings.user(), settings.password());
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis", "jdbc"})
    void everyCombinationEndsAtTheDeadlineAndCancelsItsWorkOrKeepsItsKeyForItsOutcome(String store) {
        on(store).run(context -> {
            Matrix matrix = context.getBean(Matrix.class);
            IdempotencyStore records = context.getBean(IdempotencyStore.class);
            // connected before the first deadline starts: a first connection is not what this test times
            records.ping();
            // the combinations run side by side (their keys and methods are their own): each mostly
            // waits, for its deadline and for a lapsing lease, and one after the other they took 24 s
            List<String> failures = Collections.synchronizedList(new ArrayList<>());
            ExecutorService callers = Executors.newFixedThreadPool(MODELS.size() * STACKS.size());
            try {
                List<Future<?>> checks = new ArrayList<>();
                for (String model : MODELS) {
                    for (String stack : STACKS) {
                        String method = model + stack;
                        checks.add(callers.submit(() -> {
                            try {
                                checkOne(matrix, records, method, stack);
                            } catch (AssertionError | Exception failure) {
                                failures.add(method + " on " + store + ": " + failure.getMessage());
                            }
                        }));
                    }
                }
                for (Future<?> check : checks) {
                    check.get(30, TimeUnit.SECONDS);
                }
            } finally {
                callers.shutdownNow();
            }
            assertThat(failures).isEmpty();
        });
    }

    private static void checkOne(Matrix matrix, IdempotencyStore records, String method, String stack)
            throws Exception {
        String key = method + "-" + UUID.randomUUID();
        long started = System.nanoTime();
        Object outcome = call(matrix, method, key);
        long answeredMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        if (stack.contains("F")) {
            assertThat(outcome).as("the fallback answers").isEqualTo("fallback " + key);
        } else {
            assertThat(outcome).as("a deadline error").isInstanceOf(DeadlineExceededException.class);
        }
        assertThat(answeredMillis).as("answered at the deadline").isGreaterThanOrEqualTo(DEADLINE_MILLIS - 50)
                .isLessThan(DEADLINE_MILLIS + 3_000);
        if (stack.contains("I") && !method.startsWith("blocking")) {
            String stored = IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, method, "", key);
            // past the deadline plus the lease margin, when a lease sized to the deadline would have lapsed
            long lapsedBy = DEADLINE_MILLIS + IdempotencyConfig.DEFAULT_LEASE_MARGIN.toMillis() + 500;
            long left = lapsedBy - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (left > 0) {
                Thread.sleep(left);
            }
            assertThat(matrix.started(key)).as("the work started").isPositive();
            assertThat(matrix.stopped(key)).as("no attempt of idempotent asynchronous work cancelled").isZero();
            IdempotencyRecord record = records.find(stored);
            assertThat(record).as("the key still claimed").isNotNull();
            assertThat(record.status()).isEqualTo(IdempotencyStatus.IN_PROGRESS);
            assertThat(record.isLeaseExpired(System.currentTimeMillis())).as("its lease kept").isFalse();
            return;
        }
        waitUntil(() -> matrix.started(key) > 0 && matrix.started(key) == matrix.stopped(key), Duration.ofSeconds(5),
                () -> "every attempt cancelled: started " + matrix.started(key) + ", stopped " + matrix.stopped(key));
        if (stack.contains("I")) {
            String stored = IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, method, "", key);
            // free again within the deadline plus the lease margin (2 s): released after an interrupt
            long settleBy = DEADLINE_MILLIS + IdempotencyConfig.DEFAULT_LEASE_MARGIN.toMillis() + 1_000;
            waitUntil(() -> isFree(records.find(stored)),
                    Duration.ofMillis(Math.max(1, settleBy - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))),
                    () -> "key settled: " + describe(records.find(stored)));
        }
    }

    private static boolean isFree(IdempotencyRecord record) {
        return record == null || record.isLeaseExpired(System.currentTimeMillis());
    }

    private static String describe(IdempotencyRecord record) {
        return record == null ? "gone" : record.status() + " owned by " + record.ownerToken();
    }

    /** Calls the method and returns its answer: the value, or the failure it ended with. */
    private static Object call(Matrix matrix, String name, String key) throws Exception {
        Method method = Matrix.class.getMethod(name, String.class);
        Object result;
        try {
            result = method.invoke(matrix, key);
        } catch (InvocationTargetException ex) {
            return ex.getTargetException();
        }
        try {
            if (result instanceof CompletableFuture<?> future) {
                return future.get(10, TimeUnit.SECONDS);
            }
            if (result instanceof Mono<?> mono) {
                return mono.block(Duration.ofSeconds(10));
            }
            return result;
        } catch (Exception ex) {
            return Causes.unwrapAsync(ex instanceof java.util.concurrent.ExecutionException ? ex.getCause() : ex);
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition, Duration within,
            java.util.function.Supplier<String> what) throws InterruptedException {
        long until = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                throw new AssertionError("not within " + within.toMillis() + " ms: " + what.get());
            }
            Thread.sleep(10);
        }
    }

    /** One method per model and stack; each attempt counts its start and its cancellation per key. */
    public static class Matrix {

        private final Map<String, AtomicInteger> started = new ConcurrentHashMap<>();

        private final Map<String, AtomicInteger> stopped = new ConcurrentHashMap<>();

        public int started(String key) {
            return started.computeIfAbsent(key, k -> new AtomicInteger()).get();
        }

        public int stopped(String key) {
            return stopped.computeIfAbsent(key, k -> new AtomicInteger()).get();
        }

        private String block(String key) throws InterruptedException {
            started.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            try {
                Thread.sleep(30_000);
                return "never";
            } catch (InterruptedException ex) {
                stopped.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                throw ex;
            }
        }

        private CompletableFuture<String> future(String key) {
            started.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            CompletableFuture<String> never = new CompletableFuture<>();
            never.whenComplete((value, failure) -> {
                if (never.isCancelled()) {
                    stopped.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                }
            });
            return never;
        }

        private Mono<String> mono(String key) {
            return Mono.<String>never()
                    .doOnSubscribe(subscription -> started.computeIfAbsent(key, k -> new AtomicInteger())
                            .incrementAndGet())
                    .doOnCancel(() -> stopped.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet());
        }

        public String fallbackBlocking(String key, Throwable failure) {
            return "fallback " + key;
        }

        public CompletableFuture<String> fallbackFuture(String key, Throwable failure) {
            return CompletableFuture.completedFuture("fallback " + key);
        }

        public Mono<String> fallbackMono(String key, Throwable failure) {
            return Mono.just("fallback " + key);
        }

        @Timeout("500ms")
        public String blockingT(String key) throws InterruptedException {
            return block(key);
        }

        @Timeout("500ms")
        @Idempotent(key = "#key", name = "blockingTI")
        public String blockingTI(String key) throws InterruptedException {
            return block(key);
        }

        @Timeout("500ms")
        @Idempotent(key = "#key", name = "blockingTIR")
        @Retry(maxAttempts = 2)
        public String blockingTIR(String key) throws InterruptedException {
            return block(key);
        }

        @Timeout(value = "500ms", fallbackMethod = "fallbackBlocking")
        @Idempotent(key = "#key", name = "blockingTIRF")
        @Retry(maxAttempts = 2)
        public String blockingTIRF(String key) throws InterruptedException {
            return block(key);
        }

        @Timeout(value = "500ms", fallbackMethod = "fallbackBlocking")
        @Idempotent(key = "#key", name = "blockingTIRFH")
        @Retry(maxAttempts = 2, concurrentSafe = true, hedgeDelay = "50ms")
        public String blockingTIRFH(String key) throws InterruptedException {
            return block(key);
        }

        @Timeout("500ms")
        public CompletableFuture<String> futureT(String key) {
            return future(key);
        }

        @Timeout("500ms")
        @Idempotent(key = "#key", name = "futureTI")
        public CompletableFuture<String> futureTI(String key) {
            return future(key);
        }

        @Timeout("500ms")
        @Idempotent(key = "#key", name = "futureTIR")
        @Retry(maxAttempts = 2)
        public CompletableFuture<String> futureTIR(String key) {
            return future(key);
        }

        @Timeout(value = "500ms", fallbackMethod = "fallbackFuture")
        @Idempotent(key = "#key", name = "futureTIRF")
        @Retry(maxAttempts = 2)
        public CompletableFuture<String> futureTIRF(String key) {
            return future(key);
        }

        @Timeout(value = "500ms", fallbackMethod = "fallbackFuture")
        @Idempotent(key = "#key", name = "futureTIRFH")
        @Retry(maxAttempts = 2, concurrentSafe = true, hedgeDelay = "50ms")
        public CompletableFuture<String> futureTIRFH(String key) {
            return future(key);
        }

        @Timeout("500ms")
        public Mono<String> monoT(String key) {
            return mono(key);
        }

        @Timeout("500ms")
        @Idempotent(key = "#key", name = "monoTI")
        public Mono<String> monoTI(String key) {
            return mono(key);
        }

        @Timeout("500ms")
        @Idempotent(key = "#key", name = "monoTIR")
        @Retry(maxAttempts = 2)
        public Mono<String> monoTIR(String key) {
            return mono(key);
        }

        @Timeout(value = "500ms", fallbackMethod = "fallbackMono")
        @Idempotent(key = "#key", name = "monoTIRF")
        @Retry(maxAttempts = 2)
        public Mono<String> monoTIRF(String key) {
            return mono(key);
        }

        @Timeout(value = "500ms", fallbackMethod = "fallbackMono")
        @Idempotent(key = "#key", name = "monoTIRFH")
        @Retry(maxAttempts = 2, concurrentSafe = true, hedgeDelay = "50ms")
        public Mono<String> monoTIRFH(String key) {
            return mono(key);
        }
    }
}
