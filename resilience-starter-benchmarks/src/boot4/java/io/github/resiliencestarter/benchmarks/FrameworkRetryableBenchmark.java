package io.github.resiliencestarter.benchmarks;

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
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;

/**
 * Issue 49, item 4: a successful call through this starter's {@code @Retry} against Spring
 * Framework 7's {@code @Retryable} (with {@code @EnableResilientMethods}, both at their defaults),
 * beside the plain call and the interceptor floor of {@code AnnotationBenchmark}, in one Boot 4
 * context. The goal: the starter's time beyond the plain call at most half of {@code @Retryable}'s. Compiled
 * only by the module's {@code boot4} profile (with {@link Targets}, nothing else of the module).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameworkRetryableBenchmark {

    private ConfigurableApplicationContext context;

    private Targets.Plain plain;

    private Targets.Floor floor;

    private Targets.Ours ours;

    private FrameworkRetry framework;

    private int value;

    /** Spring Framework 7's retry, at its defaults. */
    public static class FrameworkRetry {

        @Retryable
        public int retry(int value) {
            return Targets.work(value);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableResilientMethods
    @Import(Targets.CommonBeans.class)
    static class App {

        @Bean
        FrameworkRetry frameworkRetry() {
            return new FrameworkRetry();
        }
    }

    @Setup
    public void start() {
        context = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("resilience.idempotent.store=memory", "logging.level.root=WARN",
                        "spring.main.banner-mode=off",
                        // a driver is on the class path, no database: Boot 4's name of the configuration
                        "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
                .run();
        plain = context.getBean(Targets.Plain.class);
        floor = context.getBean(Targets.Floor.class);
        ours = context.getBean(Targets.Ours.class);
        framework = context.getBean(FrameworkRetry.class);
    }

    @TearDown
    public void stop() {
        context.close();
    }

    @Benchmark
    public int plainCall() {
        return plain.call(value++);
    }

    @Benchmark
    public int floorCall() {
        return floor.call(value++);
    }

    @Benchmark
    public int retryOurs() {
        return ours.retry(value++);
    }

    @Benchmark
    public int retryFrameworkRetryable() {
        return framework.retry(value++);
    }
}
