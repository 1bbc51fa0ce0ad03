package io.github.resiliencestarter.benchmarks;

import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resiliencestarter.timeout.support.TimeoutExecutors;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.retry.annotation.EnableRetry;

/**
 * The annotation paths, single thread, average time per call: every annotated method
 * is called through its real Spring proxy, in one application context.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AnnotationBenchmark {

    private ConfigurableApplicationContext context;

    private Targets.Plain plain;

    private Targets.Floor floor;

    private Targets.Ours ours;

    private Targets.Resilience4j resilience4j;

    private Targets.SpringRetry springRetry;

    private ThreadPoolExecutor executor;

    private TimeLimiter timeLimiter;

    private int value;

    @SpringBootConfiguration
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    @EnableRetry
    @Import(Targets.CommonBeans.class)
    static class App {

        @Bean
        Targets.Resilience4j resilience4j() {
            return new Targets.Resilience4j();
        }

        @Bean
        Targets.SpringRetry springRetry() {
            return new Targets.SpringRetry();
        }
    }

    @Setup
    public void start() {
        context = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("resilience.idempotent.store=memory", "logging.level.root=WARN",
                        "spring.main.banner-mode=off", "management.metrics.enable.all=false",
                        "resilience.retry.instances.observedRetry.mode=observe",
                        "resilience.timeout.instances.observedTimeout.mode=OBSERVE")
                .run();
        plain = context.getBean(Targets.Plain.class);
        floor = context.getBean(Targets.Floor.class);
        ours = context.getBean(Targets.Ours.class);
        resilience4j = context.getBean(Targets.Resilience4j.class);
        springRetry = context.getBean(Targets.SpringRetry.class);
        // the same pool shape as the starter's OFFLOAD executor
        executor = TimeoutExecutors.newBoundedExecutor();
        timeLimiter = TimeLimiter.of(TimeLimiterConfig.custom().timeoutDuration(Duration.ofSeconds(5)).build());
    }

    @TearDown
    public void stop() {
        executor.shutdownNow();
        context.close();
    }

    @Benchmark
    public int plainCall() {
        return plain.call(value++);
    }

    /** The interceptor floor: a proxy whose one advice only calls {@code proceed()}. */
    @Benchmark
    public int floorCall() {
        return floor.call(value++);
    }

    @Benchmark
    public int retryOurs() {
        return ours.retry(value++);
    }

    @Benchmark
    public int retryResilience4j() {
        return resilience4j.retry(value++);
    }

    @Benchmark
    public int retrySpringRetry() {
        return springRetry.retry(value++);
    }

    /** A closed {@code @CircuitBreaker}: one permission and one recorded outcome per call (an attempt). */
    @Benchmark
    public int circuitBreakerOurs() {
        return ours.breaker(value++);
    }

    /** Resilience4j's own {@code @CircuitBreaker} aspect, closed, default settings. */
    @Benchmark
    public int circuitBreakerResilience4j() {
        return resilience4j.breaker(value++);
    }

    @Benchmark
    public int timeoutOursInterrupt() {
        return ours.timeoutInterrupt(value++);
    }

    /** {@code @Retry} in observe mode: one attempt, the decision counted, not made. */
    @Benchmark
    public int retryOursObserved() {
        return ours.retryObserved(value++);
    }

    /** {@code @Timeout} in observe mode: the work on the caller's thread, an overrun counted. */
    @Benchmark
    public int timeoutOursObserved() {
        return ours.timeoutObserved(value++);
    }

    @Benchmark
    public int timeoutOursOffload() {
        return ours.timeoutOffload(value++);
    }

    @Benchmark
    public int timeoutRawExecutor() throws Exception {
        int input = value++;
        return executor.submit(() -> plain.call(input)).get(5, TimeUnit.SECONDS);
    }

    @Benchmark
    public int timeoutResilience4jTimeLimiter() throws Exception {
        int input = value++;
        Callable<Integer> call = timeLimiter.decorateFutureSupplier(() -> executor.submit(() -> plain.call(input)));
        return call.call();
    }

    /** {@code @Timeout}(INTERRUPT) + {@code @Idempotent} (memory store) + {@code @Retry}, a new key per call. */
    @Benchmark
    public int allThreeOursFirst() {
        return ours.everything(Integer.toString(value++), 1);
    }

    /**
     * {@link #allThreeOursFirst} with records that expire after 10 ms: what the annotations cost
     * when the store does not hold hundreds of thousands of records for the collector to copy.
     */
    @Benchmark
    public int allThreeOursFirstShortLived() {
        return ours.everythingShortLived(Integer.toString(value++), 1);
    }

    /** The same three annotations, a key completed before: the stored result is replayed. */
    @Benchmark
    public int allThreeOursReplay() {
        return ours.everything("same-key", 1);
    }
}
