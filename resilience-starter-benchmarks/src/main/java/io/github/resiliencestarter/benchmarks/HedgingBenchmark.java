package io.github.resiliencestarter.benchmarks;

import io.github.resiliencestarter.retry.HedgePolicy;
import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryObserver;
import io.github.resiliencestarter.retry.support.RatioRetryBudget;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Hedging against a slow replica: a simulated downstream answers in 1.5 to 2.5 ms (median 2 ms),
 * except 5 % of requests, chosen by a seeded sequence, which take 20 ms. Sampled latency per call
 * (JMH prints p50, p90, p99, ...) with no hedging, a fixed 3 ms hedge delay, and the observed p90
 * and p95; at the end of each trial the extra downstream calls the hedges cost are printed.
 *
 * <pre>
 * java -cp ... org.openjdk.jmh.Main HedgingBenchmark -f 1 -wi 1 -w 5s -i 2 -r 10s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
public class HedgingBenchmark {

    /** No hedging, a fixed delay, or an observed percentile, as {@code @Retry(hedgeDelay)} takes it. */
    @Param({"none", "3ms", "p90", "p95"})
    public String hedge;

    private TimeoutRuntime runtime;

    private Retrier retrier;

    private SlowReplicaDownstream downstream;

    private final AtomicLong calls = new AtomicLong();

    private final AtomicLong hedgesWon = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() {
        runtime = TimeoutRuntime.ofDefaults();
        downstream = new SlowReplicaDownstream(17);
        RetryConfig.Builder config = RetryConfig.custom().maxAttempts(2).budget(RatioRetryBudget.ofDefaults());
        if (hedge.startsWith("p")) {
            config.hedge(HedgePolicy.atPercentile(Double.parseDouble(hedge.substring(1))));
        } else if (!hedge.equals("none")) {
            config.hedge(HedgePolicy.after(Duration.ofMillis(Long.parseLong(hedge.replace("ms", "")))));
        }
        retrier = Retrier.builder("Replica.read", config.build()).timeoutRuntime(runtime)
                .observer(new RetryObserver() {
                    @Override
                    public void onHedgeWon(String operation, int attempt) {
                        hedgesWon.incrementAndGet();
                    }
                }).build();
    }

    @TearDown(Level.Trial)
    public void report() {
        long made = calls.get();
        long sent = downstream.requests();
        System.out.printf("%nhedge=%s: %d calls, %d downstream requests, extra calls %.2f %%, hedges won %.2f %% of "
                + "calls, slow replies %.2f %%%n", hedge, made, sent, 100.0 * (sent - made) / made,
                100.0 * hedgesWon.get() / made, 100.0 * downstream.slow() / sent);
        runtime.close();
    }

    @Benchmark
    public String read() throws Throwable {
        calls.incrementAndGet();
        return retrier.call(downstream::read);
    }

    /** A replica set where one request in twenty meets a slow replica; interruptible like real I/O waits. */
    static final class SlowReplicaDownstream {

        private static final long FAST_MIN_NANOS = 1_500_000;

        private static final long FAST_SPREAD_NANOS = 1_000_000;

        private static final long SLOW_NANOS = 20_000_000;

        private static final double SLOW_SHARE = 0.05;

        private final long seed;

        private final AtomicLong requests = new AtomicLong();

        private final AtomicLong slow = new AtomicLong();

        SlowReplicaDownstream(long seed) {
            this.seed = seed;
        }

        String read() throws InterruptedException {
            long n = requests.getAndIncrement();
            // a fixed sequence of draws whatever thread sends the request: the runs are repeatable
            double slowDraw = uniform(seed, 2 * n);
            long nanos;
            if (slowDraw < SLOW_SHARE) {
                slow.incrementAndGet();
                nanos = SLOW_NANOS;
            } else {
                nanos = FAST_MIN_NANOS + (long) (uniform(seed, 2 * n + 1) * FAST_SPREAD_NANOS);
            }
            pause(nanos);
            return "value";
        }

        /** Sleeps to the microsecond (Thread.sleep on Java 17 rounds to whole milliseconds); interruptible. */
        private static void pause(long nanos) throws InterruptedException {
            long end = System.nanoTime() + nanos;
            for (long left = nanos; left > 0; left = end - System.nanoTime()) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) {
                    throw new InterruptedException("a hedge won");
                }
            }
        }

        long requests() {
            return requests.get();
        }

        long slow() {
            return slow.get();
        }

        /** The n-th draw of a seeded sequence, uniform in [0, 1): SplitMix64's finaliser over seed + n. */
        private static double uniform(long seed, long n) {
            long z = seed + n * 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z = z ^ (z >>> 31);
            return (z >>> 11) * 0x1.0p-53;
        }
    }
}
