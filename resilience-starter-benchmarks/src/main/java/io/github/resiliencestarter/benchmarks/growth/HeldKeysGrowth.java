package io.github.resiliencestarter.benchmarks.growth;

import com.sun.management.OperatingSystemMXBean;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import io.github.resiliencestarter.idempotent.internal.LeaseKeeper;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.ForwardingIdempotencyStore;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What holding many idempotency keys at once costs: N executions in flight on the Redis store, each
 * claim's lease kept by the {@link LeaseKeeper} as the engine keeps it (one extension every third
 * of the lease, from one timer thread and a few extension threads). For each N the process's CPU
 * time and the Redis server's commands over a window are measured while nothing but the keeper
 * runs; the extensions expected are N × 3 per lease, and the store calls (round trips) show how
 * many of them each batch carried.
 *
 * <p>Arguments: {@code OUT COUNTS WINDOW_SECONDS}, e.g. {@code held.json 1,100,10000 30}. The lease
 * is the starter's default. The server comes from {@code RESILIENCE_TEST_REDIS_URL}; every key
 * claimed is deleted at the end of its step.
 */
public final class HeldKeysGrowth {

    private static final long LEASE_MILLIS = IdempotencyConfig.DEFAULT_LEASE.toMillis();

    private static final long TTL_MILLIS = 86_400_000;

    private HeldKeysGrowth() {
    }

    /**
     * Entry point.
     *
     * @param args {@code OUT COUNTS WINDOW_SECONDS}
     * @throws Exception when writing the result fails
     */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int[] counts = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        // whole extension periods (a third of the lease): a window of one and a half would count one or two rounds
        long period = LEASE_MILLIS / 3 / 1000;
        int windowSeconds = (int) (Math.max(1, (Integer.parseInt(args[2]) + period - 1) / period) * period);
        LettuceConnectionFactory factory = GrowthEnv.redis();
        try {
            StringRedisTemplate redis = GrowthEnv.template(factory);
            CountingStore store = new CountingStore(new RedisIdempotencyStore(factory));
            // one keeper for every step, as one application has one: closed leases leave it
            LeaseKeeper keeper = new LeaseKeeper(TimeSource.SYSTEM);
            List<String> steps = new ArrayList<>();
            for (int held : counts) {
                steps.add(measure(redis, store, keeper, held, windowSeconds));
                System.err.println("[held] " + steps.get(steps.size() - 1));
            }
            String json = String.format(Locale.ROOT, "{\"leaseMillis\":%d,\"windowSeconds\":%d,\"steps\":[%s]}",
                    LEASE_MILLIS, windowSeconds, String.join(",", steps));
            Files.writeString(out, json + "\n", StandardCharsets.UTF_8);
        } finally {
            factory.destroy();
        }
    }

    private static String measure(StringRedisTemplate redis, CountingStore store, LeaseKeeper keeper,
            int held, int windowSeconds) throws InterruptedException {
        List<String> keys = new ArrayList<>(held);
        List<LeaseKeeper.Lease> leases = new ArrayList<>(held);
        for (int i = 0; i < held; i++) {
            String key = "idem:held:_:" + TraceIds.generate();
            String owner = TraceIds.generate();
            if (!store.claim(new Claim(key, "held", GrowthEnv.fingerprint(key), owner, LEASE_MILLIS, TTL_MILLIS))
                    .owned()) {
                throw new IllegalStateException("fresh key not claimed: " + key);
            }
            keys.add(key);
            leases.add(keeper.keep(store, key, owner, LEASE_MILLIS, Long.MAX_VALUE));
        }
        // one full extension round before measuring: the keeper's threads exist and the code is compiled
        Thread.sleep(LEASE_MILLIS / 3 + 1_000);
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long extensionsBefore = store.extensions.sum();
        long batchesBefore = store.batches.sum();
        long commandsBefore = commandsProcessed(redis);
        long cpuBefore = os.getProcessCpuTime();
        long started = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(windowSeconds));
        long cpu = os.getProcessCpuTime() - cpuBefore;
        long extensions = store.extensions.sum() - extensionsBefore;
        long batches = store.batches.sum() - batchesBefore;
        // the INFO command that reads the count is itself counted once
        long commands = commandsProcessed(redis) - commandsBefore - 1;
        double seconds = (System.nanoTime() - started) / 1e9;
        leases.forEach(LeaseKeeper.Lease::close);
        for (int i = 0; i < keys.size(); i += 1000) {
            redis.delete(keys.subList(i, Math.min(keys.size(), i + 1000)));
        }
        double expected = held * 3.0 / (LEASE_MILLIS / 1000.0);
        return String.format(Locale.ROOT, "{\"held\":%d,\"cpuMillisPerSecond\":%.2f,\"extensionsPerSecond\":%.1f,"
                + "\"storeCallsPerSecond\":%.1f,\"commandsPerSecond\":%.1f,\"expectedPerSecond\":%.1f}", held,
                cpu / 1e6 / seconds, extensions / seconds, batches / seconds, commands / seconds, expected);
    }

    private static long commandsProcessed(StringRedisTemplate redis) {
        String total = redis.execute((RedisCallback<String>) connection -> connection.serverCommands().info("stats")
                .getProperty("total_commands_processed"));
        if (total == null) {
            throw new IllegalStateException("INFO stats has no total_commands_processed");
        }
        return Long.parseLong(total.trim());
    }

    /** The Redis store, counting the lease extensions the keeper makes through it. */
    private static final class CountingStore extends ForwardingIdempotencyStore {

        final LongAdder extensions = new LongAdder();

        CountingStore(IdempotencyStore delegate) {
            super(delegate);
        }

        final LongAdder batches = new LongAdder();

        @Override
        public boolean extendLease(String key, String ownerToken, long leaseMillis) {
            extensions.increment();
            batches.increment();
            return super.extendLease(key, ownerToken, leaseMillis);
        }

        @Override
        public boolean[] extendLeases(List<LeaseExtension> leases) {
            // counted here, not in extendLease: a store that pipelines never calls it
            extensions.add(leases.size());
            batches.increment();
            return delegate().extendLeases(leases);
        }
    }
}
