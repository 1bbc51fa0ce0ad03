package io.github.resiliencestarter.autoconfigure.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.testsupport.BootLine;
import io.github.resiliencestarter.testsupport.RealServers;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutRejectedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Virtual threads (Java 21+, run on the Java 25 leg; docs/async.md): with Boot's
 * {@code spring.threads.virtual.enabled=true} OFFLOAD work runs on virtual threads, still bounded,
 * with the trace context and MDC; INTERRUPT, retries and exactly-once idempotency (real Redis) work
 * for callers on virtual threads.
 */
class VirtualThreadsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class))
            .withPropertyValues("spring.threads.virtual.enabled=true")
            .withBean(Work.class);

    @Test
    void offloadedWorkRunsOnAVirtualThreadWithTheTraceContextAndMdc() {
        runner.withPropertyValues("resilience.timeout.mode=OFFLOAD").run(context -> {
            Work work = context.getBean(Work.class);
            try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("vt-trace-1"))) {
                String seen = work.describe();
                assertThat(seen).isEqualTo("virtual=true trace=vt-trace-1 mdc=vt-trace-1");
            }
        });
    }

    @Test
    void theVirtualThreadsAreStillBoundedAndRejectBeyondMaxSize() {
        runner.withPropertyValues("resilience.timeout.mode=OFFLOAD", "resilience.timeout.executor.max-size=2")
                .run(context -> {
                    Work work = context.getBean(Work.class);
                    CountDownLatch release = new CountDownLatch(1);
                    CountDownLatch started = new CountDownLatch(2);
                    // own callers: the common pool may have a single thread on a small machine
                    Thread first = Thread.ofVirtual().start(() -> work.hold(started, release));
                    Thread second = Thread.ofVirtual().start(() -> work.hold(started, release));
                    try {
                        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
                        assertThatThrownBy(() -> work.hold(new CountDownLatch(1), release))
                                .isInstanceOf(TimeoutRejectedException.class);
                    } finally {
                        release.countDown();
                    }
                    assertThat(first.join(Duration.ofSeconds(10))).isTrue();
                    assertThat(second.join(Duration.ofSeconds(10))).isTrue();
                });
    }

    @Test
    void interruptStopsWorkOfACallerOnAVirtualThread() {
        runner.withPropertyValues("resilience.timeout.mode=INTERRUPT").run(context -> {
            Work work = context.getBean(Work.class);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long started = System.nanoTime();
            Thread caller = Thread.ofVirtual().start(() -> {
                try {
                    work.sleepLong();
                } catch (Throwable ex) {
                    failure.set(ex);
                }
            });
            caller.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(failure.get()).isInstanceOf(DeadlineExceededException.class);
            assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
        });
    }

    @Test
    void aRetryOnAVirtualThreadRetriesWithItsAttemptNumbers() {
        runner.withConfiguration(AutoConfigurations.of(RetryAutoConfiguration.class))
                .withPropertyValues("resilience.retry.delay=10ms", "resilience.retry.max-delay=20ms").run(context -> {
                    Work work = context.getBean(Work.class);
                    AtomicReference<String> result = new AtomicReference<>();
                    Thread caller = Thread.ofVirtual().start(() -> result.set(work.flaky()));
                    assertThat(caller.join(Duration.ofSeconds(10))).isTrue();
                    assertThat(result.get()).isEqualTo("attempt 3 on a virtual thread: true");
                });
    }

    @Test
    void concurrentDuplicatesOnVirtualThreadsExecuteExactlyOnceOnRealRedis() {
        runner.withConfiguration(AutoConfigurations.of(IdempotencyAutoConfiguration.class,
                BootLine.redisAutoConfiguration()))
                .withPropertyValues("spring.data.redis.url=" + RealServers.redisUrl(), "resilience.idempotent.store=redis")
                .run(context -> {
                    assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
                    Work work = context.getBean(Work.class);
                    String key = UUID.randomUUID().toString();
                    List<Thread> callers = new ArrayList<>();
                    Set<String> answers = ConcurrentHashMap.newKeySet();
                    for (int i = 0; i < 32; i++) {
                        callers.add(Thread.ofVirtual().start(() -> answers.add(work.once(key))));
                    }
                    for (Thread caller : callers) {
                        assertThat(caller.join(Duration.ofSeconds(20))).isTrue();
                    }
                    assertThat(answers).containsExactly("executed " + key);
                    assertThat(work.executions().get()).isEqualTo(1);
                });
    }

    static class Work {

        private final AtomicInteger executions = new AtomicInteger();

        public AtomicInteger executions() {
            return executions;
        }

        @Retry(maxAttempts = 3, idempotent = true)
        public String flaky() {
            int attempt = TraceContextHolder.current().attempt();
            if (attempt < 3) {
                throw new RetryableException("FLAKY", "attempt " + attempt);
            }
            return "attempt " + attempt + " on a virtual thread: " + Thread.currentThread().isVirtual();
        }

        @Idempotent(key = "#key")
        public String once(String key) {
            executions.incrementAndGet();
            try {
                Thread.sleep(50); // long enough for the duplicates to find the claim in progress
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return "executed " + key;
        }


        @Timeout("5s")
        public String describe() {
            return "virtual=" + Thread.currentThread().isVirtual() + " trace=" + TraceContextHolder.current().traceId()
                    + " mdc=" + MDC.get("traceId");
        }

        @Timeout("10s")
        public void hold(CountDownLatch started, CountDownLatch release) {
            started.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }

        @Timeout("200ms")
        public void sleepLong() throws InterruptedException {
            Thread.sleep(10_000);
        }
    }
}
