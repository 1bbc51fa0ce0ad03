package io.github.resiliencestarter.autoconfigure.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.idempotent.IdempotencyInProgressException;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.testsupport.BootLine;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code CompletableFuture} results (docs/async.md): each annotation applies to the completion of
 * the returned future, not to the call that builds it. Idempotency runs on the real Redis store.
 */
class CompletableFutureResultsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class))
            // the real Redis store, as an application gets it: Boot's Redis auto-configuration and the property
            .withConfiguration(AutoConfigurations.of(BootLine.redisAutoConfiguration()))
            .withPropertyValues("spring.data.redis.url=" + RealServers.redisUrl(), "resilience.idempotent.store=redis",
                    "resilience.retry.delay=50ms", "resilience.retry.max-delay=100ms")
            .withBean(Orders.class);

    @Test
    void aTimeoutEndsAFutureThatNeverCompletesAtItsDeadlineAndCancelsIt() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            long started = System.nanoTime();
            CompletableFuture<String> result = orders.never();

            assertThat(orders.lastNever()).as("the call that builds the future returns at once").isNotNull();
            assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(DeadlineExceededException.class);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertThat(tookMs).isGreaterThanOrEqualTo(250).isLessThan(5_000);
            assertThat(orders.lastNever().isCancelled()).as("the method's own future is cancelled").isTrue();
        });
    }

    @Test
    void aTimeoutAnswersTheCallerButIdempotentWorkGoesOnHoldsItsKeyAndIsReplayedOnceDone() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            String key = "never-" + UUID.randomUUID();
            long started = System.nanoTime();
            CompletableFuture<String> result = orders.neverIdempotent(key);

            assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(DeadlineExceededException.class);
            CompletableFuture<String> work = orders.lastNever();
            assertThat(work.isCancelled()).as("the method's own future goes on").isFalse();

            // a cancelled future says nothing of the work behind it: its key stays claimed past the
            // deadline plus the 2 s margin (where a lease sized to the deadline would lapse), and the
            // client's retries are refused instead of running the work again
            while (System.nanoTime() - started < TimeUnit.MILLISECONDS.toNanos(3_000)) {
                CompletableFuture<String> retried = orders.neverIdempotent(key);
                assertThatThrownBy(() -> retried.get(10, TimeUnit.SECONDS)).cause().isInstanceOfAny(
                        DeadlineExceededException.class, IdempotencyInProgressException.class);
            }
            assertThat(orders.executions()).hasValue(1);

            // the work ends at last: its result is recorded, and the next retry replays it
            work.complete("done late");
            String replayed = null;
            while (replayed == null && System.nanoTime() - started < TimeUnit.SECONDS.toNanos(15)) {
                try {
                    replayed = orders.neverIdempotent(key).get(10, TimeUnit.SECONDS);
                } catch (ExecutionException stillSettling) {
                    assertThat(stillSettling.getCause()).isInstanceOfAny(DeadlineExceededException.class,
                            IdempotencyInProgressException.class);
                }
            }
            assertThat(replayed).isEqualTo("done late");
            assertThat(orders.executions()).hasValue(1);
        });
    }

    @Test
    void aTimeoutCancelsTheMethodsOwnFutureThroughARetryWithAFallback() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            CompletableFuture<String> result = orders.neverWithFallback();

            assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(DeadlineExceededException.class);
            assertThat(orders.lastNever().isCancelled()).as("the method's own future is cancelled").isTrue();
        });
    }

    @Test
    void aTimeoutLeavesAFutureThatCompletesInTimeAlone() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            assertThat(orders.quick().get(5, TimeUnit.SECONDS)).isEqualTo("quick");
        });
    }

    @Test
    void theDeadlineIsVisibleWhileTheFutureIsBuilt() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            long remaining = orders.remainingWhileBuilding().get(5, TimeUnit.SECONDS);
            assertThat(remaining).isPositive().isLessThanOrEqualTo(2_000);
        });
    }

    @Test
    void aRetryReinvokesTheMethodForEachFailedCompletionWithItsAttemptNumber() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            CompletableFuture<String> result = orders.failingTwice();
            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("third time");
            assertThat(orders.attemptsSeen()).containsExactly(1, 2, 3);
        });
    }

    @Test
    void theCallerIsNotBlockedWhileARetryWaitsForItsBackOff() {
        runner.withPropertyValues("resilience.retry.delay=1s", "resilience.retry.max-delay=1s").run(context -> {
            Orders orders = context.getBean(Orders.class);
            CompletableFuture<String> result = orders.failingTwice();
            // the first attempt failed at once; the second waits a scheduled second, not this thread
            assertThat(orders.attemptsSeen()).containsExactly(1);
            assertThat(result).isNotDone();
            assertThat(result.get(15, TimeUnit.SECONDS)).isEqualTo("third time");
        });
    }

    @Test
    void aCompletedValueIsStoredAndReplayedWithItsTypeWithoutRunningAgain() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
            String key = UUID.randomUUID().toString();

            Order first = orders.create(key, 5).get(5, TimeUnit.SECONDS);
            Order replay = orders.create(key, 5).get(5, TimeUnit.SECONDS);

            assertThat(replay).isEqualTo(first).isInstanceOf(Order.class);
            assertThat(orders.executions().get()).isEqualTo(1);
        });
    }

    @Test
    void aFailedCompletionReleasesTheKeySoTheNextCallRunsAgain() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            String key = UUID.randomUUID().toString();

            assertThatThrownBy(() -> orders.createFailingOnce(key).get(5, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThat(orders.createFailingOnce(key).get(5, TimeUnit.SECONDS)).isEqualTo(new Order(key, 1));
            assertThat(orders.failingOnceCalls().get()).isEqualTo(2);
        });
    }

    @Test
    void sixtyFourConcurrentDuplicatesExecuteExactlyOnceAndAllGetItsValue() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            for (int run = 0; run < 5; run++) {
                String key = UUID.randomUUID().toString();
                orders.executions().set(0);
                orders.gate(new CountDownLatch(1));
                ExecutorService callers = Executors.newFixedThreadPool(16);
                try {
                    List<Future<CompletableFuture<Order>>> calls = new ArrayList<>();
                    for (int i = 0; i < 64; i++) {
                        calls.add(callers.submit(() -> orders.createGated(key)));
                    }
                    List<CompletableFuture<Order>> results = new ArrayList<>();
                    for (Future<CompletableFuture<Order>> call : calls) {
                        results.add(call.get(10, TimeUnit.SECONDS));
                    }
                    orders.gate().countDown();
                    for (CompletableFuture<Order> result : results) {
                        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(new Order(key, 64));
                    }
                    assertThat(orders.executions().get()).as("executions in run " + run).isEqualTo(1);
                } finally {
                    callers.shutdownNow();
                }
            }
        });
    }

    /** What the idempotent methods complete with. */
    record Order(String id, int amount) {
    }

    static class Orders {

        volatile CompletableFuture<String> lastNever;

        final List<Integer> attemptsSeen = new CopyOnWriteArrayList<>();

        final AtomicInteger executions = new AtomicInteger();

        final AtomicInteger failingOnceCalls = new AtomicInteger();

        volatile CountDownLatch gate = new CountDownLatch(0);

        // accessors: the test holds the proxy, whose own fields are not the bean's

        public CompletableFuture<String> lastNever() {
            return lastNever;
        }

        public List<Integer> attemptsSeen() {
            return attemptsSeen;
        }

        public AtomicInteger executions() {
            return executions;
        }

        public AtomicInteger failingOnceCalls() {
            return failingOnceCalls;
        }

        public CountDownLatch gate() {
            return gate;
        }

        public void gate(CountDownLatch value) {
            gate = value;
        }

        @Timeout("300ms")
        public CompletableFuture<String> never() {
            lastNever = new CompletableFuture<>();
            return lastNever;
        }

        @Timeout("300ms")
        @Idempotent(key = "#key")
        public CompletableFuture<String> neverIdempotent(String key) {
            executions.incrementAndGet();
            lastNever = new CompletableFuture<>();
            return lastNever;
        }

        @Timeout("300ms")
        @Retry(maxAttempts = 2, idempotent = true, fallbackMethod = "fallback")
        public CompletableFuture<String> neverWithFallback() {
            lastNever = new CompletableFuture<>();
            return lastNever;
        }

        public CompletableFuture<String> fallback(Throwable failure) {
            return CompletableFuture.completedFuture("fallback after " + failure);
        }

        @Timeout("2s")
        public CompletableFuture<String> quick() {
            return CompletableFuture.supplyAsync(() -> "quick");
        }

        @Timeout("2s")
        public CompletableFuture<Long> remainingWhileBuilding() {
            return CompletableFuture.completedFuture(TraceContextHolder.current().deadline().remainingMillis());
        }

        @Retry(maxAttempts = 3, idempotent = true)
        public CompletableFuture<String> failingTwice() {
            int attempt = TraceContextHolder.current().attempt();
            attemptsSeen.add(attempt);
            if (attempt < 3) {
                return CompletableFuture.failedFuture(new RetryableException("FLAKY", "attempt " + attempt));
            }
            return CompletableFuture.supplyAsync(() -> "third time");
        }

        @Idempotent(key = "#key")
        public CompletableFuture<Order> create(String key, int amount) {
            executions.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> new Order(key, amount));
        }

        @Idempotent(key = "#key")
        public CompletableFuture<Order> createFailingOnce(String key) {
            if (failingOnceCalls.incrementAndGet() == 1) {
                return CompletableFuture.failedFuture(new IllegalStateException("first call fails"));
            }
            return CompletableFuture.completedFuture(new Order(key, 1));
        }

        @Idempotent(key = "#key")
        public CompletableFuture<Order> createGated(String key) {
            executions.incrementAndGet();
            CountDownLatch open = gate;
            return CompletableFuture.supplyAsync(() -> {
                try {
                    open.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                return new Order(key, 64);
            });
        }
    }
}
