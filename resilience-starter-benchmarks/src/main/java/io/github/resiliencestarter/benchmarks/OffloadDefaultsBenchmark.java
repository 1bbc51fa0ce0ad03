package io.github.resiliencestarter.benchmarks;

import com.alibaba.ttl.TtlCallable;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.timeout.support.TimeoutExecutors;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * {@code @Timeout} OFFLOAD exactly as an outside harness measured it (issue 32): one Spring Boot
 * context per fork with the starter's default settings (no property set but logging), a bean's
 * {@code long compute(long x)} into a {@code Blackhole}, one caller, four forks of five 1 s
 * iterations. Beside it: a raw {@code submit().get()} on a fixed pool of four (that harness's
 * baseline), the same on a pool of the starter's default shape, and Resilience4j's TimeLimiter on
 * the fixed pool. One more splits the starter's hand-off into its parts: the hand-off on the
 * starter's pool shape wrapped in TTL's {@code TtlCallable} and waited for with a timeout, as
 * OFFLOAD waits, without the rest of the starter.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(4)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class OffloadDefaultsBenchmark {

    private ConfigurableApplicationContext context;

    private Compute ours;

    private Compute plain;

    private ExecutorService fixedFour;

    private ExecutorService starterShape;

    private TimeLimiter timeLimiter;

    private long x;

    /** The bean the harness calls. */
    public static class Compute {

        public long compute(long x) {
            return x * 31 + 7;
        }
    }

    /** The same, with the starter's {@code @Timeout} at its default mode. */
    public static class TimedCompute extends Compute {

        @Override
        @Timeout("5s")
        public long compute(long x) {
            return super.compute(x);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    static class App {

        @Bean
        TimedCompute timedCompute() {
            return new TimedCompute();
        }
    }

    @Setup
    public void start() {
        context = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("logging.level.root=WARN", "spring.main.banner-mode=off").run();
        ours = context.getBean(TimedCompute.class);
        plain = new Compute();
        fixedFour = Executors.newFixedThreadPool(4);
        starterShape = TimeoutExecutors.newBoundedExecutor();
        timeLimiter = TimeLimiter.of(TimeLimiterConfig.custom().timeoutDuration(Duration.ofSeconds(5)).build());
    }

    @TearDown
    public void stop() {
        fixedFour.shutdownNow();
        starterShape.shutdownNow();
        context.close();
    }

    @Benchmark
    public void oursDefault(Blackhole blackhole) {
        blackhole.consume(ours.compute(x++));
    }

    @Benchmark
    public void rawFixedFour(Blackhole blackhole) throws Exception {
        long input = x++;
        blackhole.consume(fixedFour.submit(() -> plain.compute(input)).get());
    }

    @Benchmark
    public void rawStarterShape(Blackhole blackhole) throws Exception {
        long input = x++;
        blackhole.consume(starterShape.submit(() -> plain.compute(input)).get());
    }

    @Benchmark
    public void ttlStarterShapeTimedGet(Blackhole blackhole) throws Exception {
        long input = x++;
        blackhole.consume(starterShape.submit(TtlCallable.get(() -> plain.compute(input))).get(5, TimeUnit.SECONDS));
    }

    @Benchmark
    public void timeLimiterFixedFour(Blackhole blackhole) throws Exception {
        long input = x++;
        Callable<Long> call = timeLimiter.decorateFutureSupplier(() -> fixedFour.submit(() -> plain.compute(input)));
        blackhole.consume(call.call());
    }
}
