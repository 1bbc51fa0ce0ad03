package io.github.resiliencestarter.autoconfigure.retry;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.spring.aop.IdempotencyMarker;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import reactor.core.publisher.Mono;

/** {@code @Retry(hedgeDelay)} through the proxy, and the startup checks that refuse it. */
class HedgingAnnotationTest {

    private static final long GENEROUS_SECONDS = 30;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TimeoutAutoConfiguration.class, RetryAutoConfiguration.class));

    /** Reads that are safe to run twice at once. */
    public static class Catalogue {

        final CountDownLatch firstInterrupted = new CountDownLatch(1);

        final Set<Integer> attempts = ConcurrentHashMap.newKeySet();

        // read through methods: the bean is a class proxy, whose own fields are empty
        public CountDownLatch firstInterrupted() {
            return firstInterrupted;
        }

        public Set<Integer> attempts() {
            return attempts;
        }

        @Retry(concurrentSafe = true, hedgeDelay = "20ms")
        public String price(String sku) throws InterruptedException {
            int attempt = TraceContextHolder.current().attempt();
            attempts.add(attempt);
            if (attempt == 1) {
                try {
                    new CountDownLatch(1).await(GENEROUS_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    firstInterrupted.countDown();
                    throw ex;
                }
            }
            return "42 for " + sku;
        }

        final CountDownLatch firstMonoCancelled = new CountDownLatch(1);

        public CountDownLatch firstMonoCancelled() {
            return firstMonoCancelled;
        }

        @Retry(concurrentSafe = true, hedgeDelay = "20ms")
        public Mono<String> priceLater(String sku) {
            if (TraceContextHolder.current().attempt() == 1) {
                return Mono.<String>never().doOnCancel(firstMonoCancelled::countDown);
            }
            return Mono.just("42 for " + sku);
        }

        @Retry(concurrentSafe = true, hedgeDelay = "${catalogue.hedge:p95}", maxHedges = 2)
        public String thread() {
            return Thread.currentThread().getName();
        }
    }

    /** Not known to be idempotent. */
    public static class UnsafeHedge {

        @Retry(hedgeDelay = "20ms")
        public String read(String id) {
            return id;
        }
    }

    /** Safe to repeat, as every PUT is, but not to run twice at once. */
    public static class PutHedge {

        @PutMapping("/stock/{sku}")
        @Retry(hedgeDelay = "20ms")
        public String replace(String sku) {
            return sku;
        }
    }

    /** Declared safe to repeat, which says nothing of two at once. */
    public static class RepeatSafeHedge {

        @Retry(idempotent = true, hedgeDelay = "20ms")
        public String read(String id) {
            return id;
        }
    }

    /** Safe to retry only for requests that were never sent. */
    public static class UnsentOnlyHedge {

        @Retry(retryFor = ConnectException.class, hedgeDelay = "20ms")
        public String read(String id) {
            return id;
        }
    }

    /** Deduplicated by an idempotency claim, which the attempts inside it would share. */
    public static class IdempotentOnlyHedge {

        @Idempotent(key = "#id")
        @Retry(hedgeDelay = "20ms")
        public String create(String id) {
            return id;
        }
    }

    /** A GET handler: idempotent by definition. */
    public static class PriceHandler {

        @GetMapping("/price")
        @Retry(hedgeDelay = "p99.9")
        public String price() {
            return "42";
        }
    }

    /** Declarations that cannot be right. */
    public static class BadPercentile {

        @Retry(concurrentSafe = true, hedgeDelay = "p100")
        public String read() {
            return "";
        }
    }

    /** Sets a limit on hedges that never happen. */
    public static class MaxHedgesAlone {

        @Retry(idempotent = true, maxHedges = 2)
        public String read() {
            return "";
        }
    }

    /** Leaves no attempt for a hedge. */
    public static class SingleAttemptHedge {

        @Retry(concurrentSafe = true, maxAttempts = 1, hedgeDelay = "5ms")
        public String read() {
            return "";
        }
    }

    @Test
    void aSlowCallIsHedgedThroughTheProxyAndTheSlowAttemptIsInterrupted() {
        runner.withBean(Catalogue.class).run(context -> {
            Catalogue catalogue = context.getBean(Catalogue.class);
            assertThat(catalogue.price("sku-1")).isEqualTo("42 for sku-1");
            assertThat(catalogue.firstInterrupted().await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(catalogue.attempts()).containsExactlyInAnyOrder(1, 2);
            assertThat(context.getBean(RetryOperationSource.class).get(Catalogue.class.getMethod("price",
                    String.class), Catalogue.class).retrier().config().hedge()).hasToString("after 20ms, at most 1 hedge");
        });
    }

    @Test
    void aMonoThatDoesNotCompleteIsHedgedAndTheSlowSubscriptionIsCancelled() {
        runner.withBean(Catalogue.class).run(context -> {
            Catalogue catalogue = context.getBean(Catalogue.class);
            assertThat(catalogue.priceLater("sku-2").block(Duration.ofSeconds(GENEROUS_SECONDS)))
                    .isEqualTo("42 for sku-2");
            assertThat(catalogue.firstMonoCancelled().await(GENEROUS_SECONDS, TimeUnit.SECONDS)).isTrue();
        });
    }

    @Test
    void aPercentileFromAPlaceholderAndAGetHandlerStart() {
        runner.withBean(Catalogue.class).withBean(PriceHandler.class).withPropertyValues("catalogue.hedge=p90")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(RetryOperationSource.class).get(Catalogue.class.getMethod("thread"),
                            Catalogue.class).retrier().config().hedge().toString())
                            .startsWith("after the observed p90").endsWith("at most 2 hedges");
                    assertThat(context.getBean(PriceHandler.class).price()).isEqualTo("42");
                });
    }

    @Test
    void hedgedAttemptsRunOnTheTimeoutExecutorButInsideACallersTransactionOnTheCallersThread() {
        runner.withBean(Catalogue.class).run(context -> {
            Catalogue catalogue = context.getBean(Catalogue.class);
            assertThat(catalogue.thread()).startsWith("resilience-timeout-");
            TransactionSynchronizationManager.setActualTransactionActive(true);
            try {
                assertThat(catalogue.thread()).isEqualTo(Thread.currentThread().getName());
            } finally {
                TransactionSynchronizationManager.setActualTransactionActive(false);
            }
        });
    }

    @Test
    void R1_hedgingAMethodNotKnownToBeIdempotentFailsTheStartNamingTheMethodEvenInWarnMode() {
        runner.withBean(UnsafeHedge.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Retry(hedgeDelay) on " + UnsafeHedge.class.getName() + ".read(String)")
                .hasStackTraceContaining("sends the same request twice")
                .hasStackTraceContaining("@Retry(concurrentSafe = true)"));
        runner.withPropertyValues("resilience.retry.safety-gate=WARN").withBean(UnsafeHedge.class)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("@Retry(hedgeDelay) on " + UnsafeHedge.class.getName()));
        runner.withBean(UnsentOnlyHedge.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Retry(hedgeDelay) on " + UnsentOnlyHedge.class.getName() + ".read(String)"));
        runner.withPropertyValues("resilience.retry.safety-gate=ALLOW").withBean(UnsafeHedge.class)
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void R1_aPutOrAMethodDeclaredOnlyRepeatSafeIsNotHedgedBecauseTwoAtOnceAreNotOneAfterTheOther() {
        // before: the gate took PUT (safe to repeat) for safe to run concurrently, and ran one PUT twice at once
        for (Class<?> bean : new Class<?>[] {PutHedge.class, RepeatSafeHedge.class}) {
            runner.withBean(bean).run(context -> assertThat(context).hasFailed().getFailure()
                    .hasStackTraceContaining("@Retry(hedgeDelay) on " + bean.getName())
                    .hasStackTraceContaining("safe to run twice at once")
                    .hasStackTraceContaining("@Retry(concurrentSafe = true)"));
        }
    }

    @Test
    void R1_anIdempotencyClaimAloneDoesNotAllowHedgingBecauseTheAttemptsShareIt() {
        runner.withBean(IdempotencyMarker.class, () -> () -> Idempotent.class).withBean(IdempotentOnlyHedge.class)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("@Retry(hedgeDelay) on " + IdempotentOnlyHedge.class.getName()
                                + ".create(String)")
                        .hasStackTraceContaining("the idempotency claim is made once, outside @Retry"));
    }

    @Test
    void declarationsThatCannotBeRightFailTheStartNamingTheMethod() {
        runner.withBean(BadPercentile.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("invalid percentile 'p100'")
                .hasStackTraceContaining(BadPercentile.class.getName() + ".read()"));
        runner.withBean(MaxHedgesAlone.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("sets maxHedges without hedgeDelay"));
        runner.withBean(SingleAttemptHedge.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("hedges with maxAttempts = 1"));
        runner.withPropertyValues("resilience.timeout.enabled=false").withBean(Catalogue.class)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("needs the @Timeout executor"));
    }
}
