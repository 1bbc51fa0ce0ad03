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
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * Reactor {@code Mono} results (docs/async.md): each subscription is one governed call, in the
 * trace context of the call that assembled it. Idempotency runs on the real Redis store.
 */
class MonoResultsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class))
            // the real Redis store, as an application gets it: Boot's Redis auto-configuration and the property
            .withConfiguration(AutoConfigurations.of(BootLine.redisAutoConfiguration()))
            .withPropertyValues("spring.data.redis.url=" + RealServers.redisUrl(), "resilience.idempotent.store=redis",
                    "resilience.retry.delay=50ms", "resilience.retry.max-delay=100ms");

    @Test
    void aTimeoutEndsAMonoThatNeverCompletesAtItsDeadlineAndDisposesItsSubscription() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            CountDownLatch cancelled = new CountDownLatch(1);
            long started = System.nanoTime();

            assertThatThrownBy(() -> orders.never(cancelled).block(Duration.ofSeconds(10)))
                    .isInstanceOf(DeadlineExceededException.class);

            assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(250).isLessThan(5_000);
            assertThat(cancelled.await(5, TimeUnit.SECONDS)).as("the method's Mono was cancelled").isTrue();
        });
    }

    @Test
    void aTimeoutAnswersTheCallerButAnIdempotentMonoGoesOnAndIsReplayedOnceDone() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            String key = "late-" + System.nanoTime();

            assertThatThrownBy(() -> orders.lateIdempotent(key).block(Duration.ofSeconds(10)))
                    .isInstanceOf(DeadlineExceededException.class);

            // a cancelled subscription says nothing of a request already sent: the Mono goes on, and
            // what it ends with is recorded for the key, so the client's retry replays it
            orders.finish(key, "done late");
            String replayed = null;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (replayed == null && System.nanoTime() - until < 0) {
                try {
                    replayed = orders.lateIdempotent(key).block(Duration.ofSeconds(10));
                } catch (DeadlineExceededException | IdempotencyInProgressException stillSettling) {
                    // the completion is being written
                }
            }
            assertThat(replayed).isEqualTo("done late");
            assertThat(orders.executions()).as("the work ran once").hasValue(1);
            assertThat(orders.lateCancelled()).as("the method's Mono was not cancelled").hasValue(0);
        });
    }

    @Test
    void theDeadlineIsVisibleWhereTheMonoIsSubscribedEvenOnAnotherThread() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            Mono<Long> assembled = orders.remainingAtSubscription();
            Long remaining = assembled.subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(5));
            assertThat(remaining).isPositive().isLessThanOrEqualTo(2_000);
        });
    }

    @Test
    void aRetryInvokesTheMethodAgainForEachFailedAttemptWithItsAttemptNumber() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            assertThat(orders.failingTwice().block(Duration.ofSeconds(10))).isEqualTo("third time");
            assertThat(orders.attemptsSeen()).containsExactly(1, 2, 3);
        });
    }

    @Test
    void aCompletedValueIsStoredAndReplayedWithItsTypeWithoutRunningAgain() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
            String key = UUID.randomUUID().toString();

            Mono<Order> first = orders.create(key, 7);
            assertThat(orders.executions().get()).as("nothing runs before the subscription").isZero();
            Order firstValue = first.block(Duration.ofSeconds(5));
            Order replay = orders.create(key, 7).block(Duration.ofSeconds(5));

            assertThat(replay).isEqualTo(firstValue).isEqualTo(new Order(key, 7));
            assertThat(orders.executions().get()).isEqualTo(1);
        });
    }

    @Test
    void concurrentDuplicateSubscriptionsExecuteExactlyOnce() {
        runner.withBean(Orders.class).run(context -> {
            Orders orders = context.getBean(Orders.class);
            for (int run = 0; run < 5; run++) {
                String key = UUID.randomUUID().toString();
                orders.executions().set(0);
                List<Order> values = Flux.range(0, 32)
                        .flatMap(i -> orders.create(key, 32).subscribeOn(Schedulers.parallel()), 32)
                        .collectList().block(Duration.ofSeconds(20));
                assertThat(values).hasSize(32).containsOnly(new Order(key, 32));
                assertThat(orders.executions().get()).as("executions in run " + run).isEqualTo(1);
            }
        });
    }

    @Test
    void aFluxIsRefusedAtStartupForEachAnnotationNamingTheMethod() {
        runner.withBean(TimedStream.class).run(context -> assertThat(context.getStartupFailure()).rootCause()
                .hasMessageStartingWith("@Timeout on ").hasMessageContaining("MonoResultsTest$TimedStream.events() returns a Flux"));
        runner.withBean(RetriedStream.class).run(context -> assertThat(context.getStartupFailure()).rootCause()
                .hasMessageStartingWith("@Retry on ").hasMessageContaining("MonoResultsTest$RetriedStream.events() returns a Flux"));
        runner.withBean(IdempotentStream.class).run(context -> assertThat(context.getStartupFailure()).rootCause()
                .hasMessageStartingWith("@Idempotent on ").hasMessageContaining("MonoResultsTest$IdempotentStream.events() returns a Flux"));
    }

    /** What the idempotent method completes with. */
    record Order(String id, int amount) {
    }

    static class Orders {

        private final List<Integer> attemptsSeen = new CopyOnWriteArrayList<>();

        private final AtomicInteger executions = new AtomicInteger();

        public List<Integer> attemptsSeen() {
            return attemptsSeen;
        }

        public AtomicInteger executions() {
            return executions;
        }

        private final java.util.Map<String, Sinks.One<String>> late = new java.util.concurrent.ConcurrentHashMap<>();

        private final AtomicInteger lateCancelled = new AtomicInteger();

        @Timeout("300ms")
        public Mono<String> never(CountDownLatch cancelled) {
            return Mono.<String>never().doOnCancel(cancelled::countDown);
        }

        @Timeout("300ms")
        @Idempotent(key = "#key")
        public Mono<String> lateIdempotent(String key) {
            executions.incrementAndGet();
            return late.computeIfAbsent(key, k -> Sinks.one()).asMono().doOnCancel(lateCancelled::incrementAndGet);
        }

        void finish(String key, String value) {
            late.get(key).tryEmitValue(value);
        }

        AtomicInteger lateCancelled() {
            return lateCancelled;
        }

        @Timeout("2s")
        public Mono<Long> remainingAtSubscription() {
            return Mono.fromCallable(() -> TraceContextHolder.current().deadline().remainingMillis());
        }

        @Retry(maxAttempts = 3, idempotent = true)
        public Mono<String> failingTwice() {
            int attempt = TraceContextHolder.current().attempt();
            attemptsSeen.add(attempt);
            return attempt < 3 ? Mono.error(new RetryableException("FLAKY", "attempt " + attempt))
                    : Mono.just("third time");
        }

        @Idempotent(key = "#key")
        public Mono<Order> create(String key, int amount) {
            return Mono.fromCallable(() -> {
                executions.incrementAndGet();
                Thread.sleep(50); // long enough for the duplicates to find the claim in progress
                return new Order(key, amount);
            });
        }
    }

    static class TimedStream {

        @Timeout("1s")
        public Flux<String> events() {
            return Flux.just("a");
        }
    }

    static class RetriedStream {

        @Retry(idempotent = true)
        public Flux<String> events() {
            return Flux.just("a");
        }
    }

    static class IdempotentStream {

        @Idempotent(key = "'k'")
        public Flux<String> events() {
            return Flux.just("a");
        }
    }
}
