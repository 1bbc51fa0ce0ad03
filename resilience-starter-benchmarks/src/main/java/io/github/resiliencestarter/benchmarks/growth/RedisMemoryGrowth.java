package io.github.resiliencestarter.benchmarks.growth;

import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.StoredResponse;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Redis memory of one completed idempotency record, written by {@link RedisIdempotencyStore}
 * (claim, then completion with a JSON body), against a raw {@code SET} of the same body under a
 * key of the same length with the same TTL: the average {@code MEMORY USAGE key SAMPLES 0} over
 * RECORDS keys, for each body size. The record's text length ({@code STRLEN}) is reported beside
 * it, so what the record adds to the body is visible apart from the allocator's size classes.
 *
 * <p>Arguments: {@code OUT RECORDS SIZES}, e.g. {@code growth-redis.json 1000 50,200,1000}. The
 * server comes from {@code RESILIENCE_TEST_REDIS_URL}; every key written is deleted at the end of
 * its step.
 */
public final class RedisMemoryGrowth {

    private static final long TTL_MILLIS = 86_400_000;

    private static final long LEASE_MILLIS = 30_000;

    /*
     * Through scripts rather than the connection's generic execute, whose byte-array output cannot
     * take MEMORY USAGE's integer reply. SAMPLES 0: every element counted, not an estimate from five.
     */
    private static final RedisScript<Long> MEMORY_USAGE =
            RedisScript.of("return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0')", Long.class);

    private static final RedisScript<Long> STRLEN = RedisScript.of("return redis.call('STRLEN', KEYS[1])", Long.class);

    private static final RedisScript<String> OBJECT_ENCODING =
            RedisScript.of("return redis.call('OBJECT', 'ENCODING', KEYS[1])", String.class);

    private RedisMemoryGrowth() {
    }

    /**
     * Entry point.
     *
     * @param args {@code OUT RECORDS SIZES}
     * @throws Exception when writing the result fails
     */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int records = Integer.parseInt(args[1]);
        int[] sizes = Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray();
        LettuceConnectionFactory factory = GrowthEnv.redis();
        try {
            StringRedisTemplate redis = GrowthEnv.template(factory);
            List<String> steps = new ArrayList<>();
            for (int size : sizes) {
                steps.add(measure(redis, records, size));
                System.err.println("[redis] " + steps.get(steps.size() - 1));
            }
            String version = redis.execute((RedisCallback<String>) c -> c.serverCommands().info("server")
                    .getProperty("redis_version"));
            String json = String.format(Locale.ROOT, "{\"records\":%d,\"redis\":\"%s\",\"steps\":[%s]}", records,
                    version, String.join(",", steps));
            Files.writeString(out, json + "\n", StandardCharsets.UTF_8);
        } finally {
            factory.destroy();
        }
    }

    private static String measure(StringRedisTemplate redis, int records, int size) {
        RedisIdempotencyStore store = ours(redis);
        List<String> written = new ArrayList<>();
        long ours = 0;
        long raw = 0;
        long recordText = 0;
        long ourKeyBytes = 0;
        String encoding = null;
        for (int i = 0; i < records; i++) {
            String payload = GrowthEnv.payload(i, size);
            String key = "idem:order:_:" + TraceIds.generate();
            write(store, key, payload);
            ours += memoryUsage(redis, key);
            recordText += redis.execute(STRLEN, List.of(key));
            ourKeyBytes += key.length();
            if (encoding == null) {
                encoding = redis.execute(OBJECT_ENCODING, List.of(key));
            }
            // the raw twin: same key length, same body, same TTL
            String rawKey = "idem:order:r:" + TraceIds.generate();
            redis.opsForValue().set(rawKey, payload, Duration.ofMillis(TTL_MILLIS));
            raw += memoryUsage(redis, rawKey);
            written.addAll(List.of(key, rawKey));
        }
        for (int i = 0; i < written.size(); i += 1000) {
            redis.delete(written.subList(i, Math.min(written.size(), i + 1000)));
        }
        double perOurs = (double) ours / records;
        double perRaw = (double) raw / records;
        return String.format(Locale.ROOT, "{\"payloadBytes\":%d,\"keyBytes\":%.0f,\"encoding\":\"%s\","
                + "\"recordTextBytes\":%.1f,\"oursBytes\":%.1f,\"rawSetBytes\":%.1f,\"ratio\":%.3f}",
                size, (double) ourKeyBytes / records, encoding, (double) recordText / records, perOurs, perRaw,
                perOurs / perRaw);
    }

    /** The store as the auto-configuration builds it: on the connection factory, not on the shared template. */
    private static RedisIdempotencyStore ours(StringRedisTemplate redis) {
        return new RedisIdempotencyStore(redis.getRequiredConnectionFactory());
    }

    /** What the engine does for a first execution: claim the key, then complete it with the body. */
    private static void write(RedisIdempotencyStore store, String key, String payload) {
        String owner = TraceIds.generate();
        if (!store.claim(new Claim(key, "order", GrowthEnv.fingerprint(key), owner, LEASE_MILLIS, TTL_MILLIS))
                .owned()) {
            throw new IllegalStateException("fresh key not claimed: " + key);
        }
        if (!store.complete(new Completion(key, owner, StoredResponse.value(payload), TTL_MILLIS))) {
            throw new IllegalStateException("claim lost: " + key);
        }
    }

    private static long memoryUsage(StringRedisTemplate redis, String key) {
        Long bytes = redis.execute(MEMORY_USAGE, List.of(key));
        if (bytes == null) {
            throw new IllegalStateException("no key " + key);
        }
        return bytes;
    }
}
