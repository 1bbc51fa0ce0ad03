package io.github.resiliencestarter.benchmarks.growth;

import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.StoredResponse;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Redis memory of one completed idempotency record, written by {@link RedisIdempotencyStore}
 * (claim, then completion with a JSON body), against a raw {@code SET} of the same body under a
 * key of the same length with the same TTL: the average {@code MEMORY USAGE key SAMPLES 0} over
 * RECORDS keys, for each body size.
 *
 * <p>To show where the difference comes from and what a change would save, the same records are
 * also written with raw commands in four other layouts (each measured with {@code MEMORY USAGE}):
 * the hash without the body plus the body in a string key of its own; every field packed into one
 * string; the hash with the body cut into pieces that fit a listpack value; and that, without the
 * fields a completed record no longer needs. With a second server (ALT_REDIS_URL, started by the
 * script with a higher {@code hash-max-listpack-value}), the store itself is measured there too:
 * the same hash kept as a listpack instead of a hash table.
 *
 * <p>Arguments: {@code OUT RECORDS SIZES [ALT_REDIS_URL]}, e.g.
 * {@code growth-redis.json 1000 50,200,1000}. The server comes from {@code RESILIENCE_TEST_REDIS_URL};
 * every key written is deleted at the end of its step.
 */
public final class RedisMemoryGrowth {

    private static final long TTL_MILLIS = 86_400_000;

    private static final long LEASE_MILLIS = 30_000;

    /** Redis' default {@code hash-max-listpack-value}: a longer value turns the hash into a hash table. */
    private static final int LISTPACK_VALUE = 64;

    /** The store's hash fields, in the order the packed alternative writes them. */
    private static final List<String> FIELDS = List.of("st", "ow", "fp", "nm", "le", "ex", "ca", "rt", "rs");

    /*
     * Through scripts rather than the connection's generic execute, whose byte-array output cannot
     * take MEMORY USAGE's integer reply. SAMPLES 0: every element counted, not an estimate from five.
     */
    private static final RedisScript<Long> MEMORY_USAGE =
            RedisScript.of("return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0')", Long.class);

    private static final RedisScript<String> OBJECT_ENCODING =
            RedisScript.of("return redis.call('OBJECT', 'ENCODING', KEYS[1])", String.class);

    private RedisMemoryGrowth() {
    }

    /**
     * Entry point.
     *
     * @param args {@code OUT RECORDS SIZES [ALT_REDIS_URL]}
     * @throws Exception when writing the result fails
     */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int records = Integer.parseInt(args[1]);
        int[] sizes = Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray();
        String altUrl = args.length > 3 ? args[3] : null;
        LettuceConnectionFactory factory = connect(GrowthEnv.required("RESILIENCE_TEST_REDIS_URL"));
        LettuceConnectionFactory altFactory = altUrl == null ? null : connect(altUrl);
        try {
            StringRedisTemplate redis = template(factory);
            StringRedisTemplate alt = altFactory == null ? null : template(altFactory);
            List<String> steps = new ArrayList<>();
            for (int size : sizes) {
                steps.add(measure(redis, alt, records, size));
                System.err.println("[redis] " + steps.get(steps.size() - 1));
            }
            String version = redis.execute((RedisCallback<String>) c -> c.serverCommands().info("server")
                    .getProperty("redis_version"));
            String json = String.format(Locale.ROOT, "{\"records\":%d,\"redis\":\"%s\",\"hashMaxListpackValue\":%s,"
                    + "\"altHashMaxListpackValue\":%s,\"steps\":[%s]}", records, version,
                    config(redis, "hash-max-listpack-value"), alt == null ? "null" : config(alt, "hash-max-listpack-value"),
                    String.join(",", steps));
            Files.writeString(out, json + "\n", StandardCharsets.UTF_8);
        } finally {
            factory.destroy();
            if (altFactory != null) {
                altFactory.destroy();
            }
        }
    }

    private static String measure(StringRedisTemplate redis, StringRedisTemplate alt, int records, int size) {
        List<String> written = new ArrayList<>();
        long ours = 0;
        long raw = 0;
        long split = 0;
        long packed = 0;
        long ourKeyBytes = 0;
        long chunkedBytes = 0;
        long trimmedBytes = 0;
        String chunkedEncoding = null;
        String encoding = null;
        for (int i = 0; i < records; i++) {
            String payload = GrowthEnv.payload(i, size);
            String key = "idem:order:_:" + TraceIds.generate();
            write(ours(redis), key, payload);
            ours += memoryUsage(redis, key);
            ourKeyBytes += key.length();
            if (encoding == null) {
                encoding = encoding(redis, key);
            }
            // the raw twin: same key length, same body, same TTL
            String rawKey = "idem:order:r:" + TraceIds.generate();
            redis.opsForValue().set(rawKey, payload, Duration.ofMillis(TTL_MILLIS));
            raw += memoryUsage(redis, rawKey);

            Map<Object, Object> hash = redis.opsForHash().entries(key);
            // layout B: the small fields stay a hash (a listpack: every value is short), the body is a string
            String metaKey = "idem:order:b:" + TraceIds.generate();
            String bodyKey = metaKey + ":r";
            for (String field : FIELDS) {
                if (!field.equals("rs")) {
                    redis.opsForHash().put(metaKey, field, (String) hash.get(field));
                }
            }
            redis.expire(metaKey, Duration.ofMillis(TTL_MILLIS));
            redis.opsForValue().set(bodyKey, (String) hash.get("rs"), Duration.ofMillis(TTL_MILLIS));
            split += memoryUsage(redis, metaKey) + memoryUsage(redis, bodyKey);

            // layout C: every field in one string, separated by a unit separator (never in tokens or numbers)
            String packedKey = "idem:order:c:" + TraceIds.generate();
            StringBuilder value = new StringBuilder();
            for (String field : FIELDS) {
                value.append(field.equals("st") ? "" : "\u001f").append((String) hash.get(field));
            }
            redis.opsForValue().set(packedKey, value.toString(), Duration.ofMillis(TTL_MILLIS));
            packed += memoryUsage(redis, packedKey);

            // layout D: the store's hash, the body cut into pieces no longer than the server's listpack
            // value limit (fields r1, r2, ...), so the whole record stays one listpack
            String chunkedKey = "idem:order:d:" + TraceIds.generate();
            Map<String, String> chunked = chunked(hash, Set.of("rs"));
            redis.opsForHash().putAll(chunkedKey, chunked);
            redis.expire(chunkedKey, Duration.ofMillis(TTL_MILLIS));
            chunkedBytes += memoryUsage(redis, chunkedKey);

            // layout E: as D, without what a completed record no longer needs: its owner and lease
            // (they guard an execution in progress) and its expiry (the key's own TTL holds it)
            String trimmedKey = "idem:order:e:" + TraceIds.generate();
            redis.opsForHash().putAll(trimmedKey, chunked(hash, Set.of("rs", "ow", "le", "ex")));
            redis.expire(trimmedKey, Duration.ofMillis(TTL_MILLIS));
            trimmedBytes += memoryUsage(redis, trimmedKey);
            if (chunkedEncoding == null) {
                chunkedEncoding = encoding(redis, chunkedKey);
            }
            written.addAll(List.of(key, rawKey, metaKey, bodyKey, packedKey, chunkedKey, trimmedKey));
        }
        long altOurs = -1;
        String altEncoding = null;
        if (alt != null) {
            List<String> altKeys = new ArrayList<>();
            altOurs = 0;
            for (int i = 0; i < records; i++) {
                String key = "idem:order:_:" + TraceIds.generate();
                write(ours(alt), key, GrowthEnv.payload(i, size));
                altOurs += memoryUsage(alt, key);
                if (altEncoding == null) {
                    altEncoding = encoding(alt, key);
                }
                altKeys.add(key);
            }
            alt.delete(altKeys);
        }
        for (int i = 0; i < written.size(); i += 1000) {
            redis.delete(written.subList(i, Math.min(written.size(), i + 1000)));
        }
        double perOurs = (double) ours / records;
        double perRaw = (double) raw / records;
        return String.format(Locale.ROOT, "{\"payloadBytes\":%d,\"keyBytes\":%.0f,\"encoding\":\"%s\","
                + "\"oursBytes\":%.1f,\"rawSetBytes\":%.1f,\"ratio\":%.3f,\"splitBytes\":%.1f,\"splitRatio\":%.3f,"
                + "\"packedBytes\":%.1f,\"packedRatio\":%.3f,\"altListpackBytes\":%s,\"altListpackRatio\":%s,"
                + "\"altEncoding\":%s,\"chunkedBytes\":%.1f,\"chunkedRatio\":%.3f,\"chunkedEncoding\":\"%s\","
                + "\"trimmedBytes\":%.1f,\"trimmedRatio\":%.3f}",
                size, (double) ourKeyBytes / records, encoding, perOurs, perRaw, perOurs / perRaw,
                (double) split / records, split / (double) raw, (double) packed / records, packed / (double) raw,
                alt == null ? "null" : String.format(Locale.ROOT, "%.1f", (double) altOurs / records),
                alt == null ? "null" : String.format(Locale.ROOT, "%.3f", altOurs / (double) raw),
                altEncoding == null ? "null" : "\"" + altEncoding + "\"",
                (double) chunkedBytes / records, chunkedBytes / (double) raw, chunkedEncoding,
                (double) trimmedBytes / records, trimmedBytes / (double) raw);
    }

    /**
     * The record's fields without {@code dropped}, and its body ({@code rs}) in pieces of at most
     * {@value #LISTPACK_VALUE} bytes under {@code r1, r2, ...}.
     */
    private static Map<String, String> chunked(Map<Object, Object> hash, Set<String> dropped) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : FIELDS) {
            if (!dropped.contains(field)) {
                fields.put(field, (String) hash.get(field));
            }
        }
        String body = (String) hash.get("rs");
        for (int i = 0, n = 1; i < body.length(); i += LISTPACK_VALUE, n++) {
            fields.put("r" + n, body.substring(i, Math.min(body.length(), i + LISTPACK_VALUE)));
        }
        return fields;
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

    private static String encoding(StringRedisTemplate redis, String key) {
        return redis.execute(OBJECT_ENCODING, List.of(key));
    }

    private static String config(StringRedisTemplate redis, String parameter) {
        return redis.execute((RedisCallback<String>) c -> c.serverCommands().getConfig(parameter)
                .getProperty(parameter));
    }

    private static LettuceConnectionFactory connect(String url) {
        URI uri = URI.create(url);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    private static StringRedisTemplate template(LettuceConnectionFactory factory) {
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        return template;
    }
}
