package io.github.resiliencestarter.benchmarks;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.retry.backoff.BackOff;
import io.github.resiliencestarter.retry.backoff.ExponentialBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.retry.support.RatioRetryBudget;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/** Case 6: the decisions on the hot path of every failure, from 2 threads, operations per second. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(2)
public class DecisionBenchmark {

    private final BackOff backOff = ExponentialBackOff.ofDefaults();

    private final RatioRetryBudget budget = new RatioRetryBudget(10, 3, Duration.ofSeconds(10), TimeSource.SYSTEM);

    @Benchmark
    public long backOffWithFullJitter() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return Jitters.full().apply(backOff.delayNanos(3, random), 0, backOff, random);
    }

    @Benchmark
    public long backOffWithDecorrelatedJitter() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return Jitters.decorrelated().apply(backOff.delayNanos(3, random), 200_000_000L, backOff, random);
    }

    @Benchmark
    public void budgetRecordCall() {
        budget.recordCall();
    }

    @Benchmark
    public boolean budgetRetryDecision() {
        budget.recordCall();
        return budget.tryAcquireRetry();
    }
}
