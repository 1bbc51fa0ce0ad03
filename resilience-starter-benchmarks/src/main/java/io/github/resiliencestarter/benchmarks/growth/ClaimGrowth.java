package io.github.resiliencestarter.benchmarks.growth;

import com.zaxxer.hikari.HikariDataSource;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencySchema;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.JdbcTableName;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Latency of {@link JdbcIdempotencyStore#claim} (first execution of a fresh key) on MariaDB
 * against the number of live records in the table. The table is the benchmark's own (never the
 * shared default one), filled server-side from MariaDB's sequence engine in the row shape the
 * store writes: a stored key of the same form and length with random-looking hex (so new claims
 * land at random places in the unique index, as real keys do), a SHA-256 fingerprint, a completed
 * status, a JSON response of about 200 bytes and an expiry a day away, so every row is live.
 *
 * <p>Arguments: {@code OUT TABLE SIZES CLAIMS THREADS FILL_CAP_SECONDS}, e.g.
 * {@code growth-claim.json growth_idempotency 1000,1000000,10000000 20000 4 600}. Filling stops at
 * the end of the chunk that crosses the cap; the step is then measured at the size reached and
 * reported as such. The measured claims are deleted after each step so the next one starts from
 * its nominal size, and the table is dropped at the end. Servers come from
 * {@code RESILIENCE_TEST_JDBC_*}.
 */
public final class ClaimGrowth {

    /** Stored keys look like the executor's: prefix, operation, scope, key. */
    private static final String KEY_PREFIX = "idem:order:_:";

    private static final long LEASE_MILLIS = 30_000;

    private static final long TTL_MILLIS = 86_400_000;

    /** A realistic JSON response body; 24 of its bytes are the head and the order number. */
    private static final int PAYLOAD_BYTES = 200;

    private static final int FILL_CHUNK = 250_000;

    private static final int WARMUP_CLAIMS = 2_000;

    /** Longest wait for the fill's dirty pages to be flushed before measuring. */
    private static final int SETTLE_SECONDS = 30;

    private ClaimGrowth() {
    }

    /**
     * Entry point.
     *
     * @param args {@code OUT TABLE SIZES CLAIMS THREADS FILL_CAP_SECONDS}
     * @throws Exception when the database fails
     */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        String table = args[1];
        long[] sizes = Arrays.stream(args[2].split(",")).mapToLong(Long::parseLong).toArray();
        int claims = Integer.parseInt(args[3]);
        int threads = Integer.parseInt(args[4]);
        long fillCapNanos = Long.parseLong(args[5]) * 1_000_000_000L;
        if (table.equals(JdbcIdempotencyStore.DEFAULT_TABLE)) {
            throw new IllegalArgumentException("use a table of your own: others' tests share " + table);
        }
        JdbcTableName.check(table);

        try (HikariDataSource dataSource = new HikariDataSource()) {
            dataSource.setJdbcUrl(GrowthEnv.required("RESILIENCE_TEST_JDBC_URL"));
            dataSource.setUsername(System.getenv("RESILIENCE_TEST_JDBC_USER"));
            dataSource.setPassword(System.getenv("RESILIENCE_TEST_JDBC_PASSWORD"));
            dataSource.setMaximumPoolSize(threads + 1);
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("DROP TABLE IF EXISTS " + table);
            JdbcIdempotencySchema.create(dataSource, table);
            JdbcIdempotencyStore store = new JdbcIdempotencyStore(dataSource,
                    new DataSourceTransactionManager(dataSource), table, TimeSource.SYSTEM);
            List<String> steps = new ArrayList<>();
            try {
                long rows = 0;
                long fillNanos = 0;
                for (long target : sizes) {
                    long fillStarted = System.nanoTime();
                    while (rows < target && fillNanos + (System.nanoTime() - fillStarted) < fillCapNanos) {
                        long chunk = Math.min(FILL_CHUNK, target - rows);
                        fill(jdbc, table, rows + 1, rows + chunk);
                        rows += chunk;
                    }
                    long stepFill = System.nanoTime() - fillStarted;
                    fillNanos += stepFill;
                    System.err.printf(Locale.ROOT, "[claim] %d rows (target %d), filled in %.1f s%n", rows, target,
                            stepFill / 1e9);
                    double settled = settle(jdbc);
                    steps.add(measure(jdbc, store, table, target, rows, stepFill, settled, claims, threads));
                    System.err.println("[claim] " + steps.get(steps.size() - 1));
                    if (rows < target) {
                        // the cap was reached: larger targets would measure the same size again
                        break;
                    }
                }
            } finally {
                jdbc.execute("DROP TABLE IF EXISTS " + table);
            }
            String json = "{\"table\":\"" + table + "\",\"claims\":" + claims + ",\"threads\":" + threads
                    + ",\"mariadb\":\"" + jdbc.queryForObject("SELECT VERSION()", String.class)
                    + "\",\"bufferPoolBytes\":" + jdbc.queryForObject("SELECT @@innodb_buffer_pool_size", Long.class)
                    + ",\"flushLogAtTrxCommit\":" + jdbc.queryForObject("SELECT @@innodb_flush_log_at_trx_commit", Integer.class)
                    + ",\"steps\":[" + String.join(",", steps) + "]}";
            Files.writeString(out, json + "\n", StandardCharsets.UTF_8);
        }
    }

    /**
     * Rows {@code from..to} in one statement from the sequence engine; MD5 and SHA2 of the
     * sequence number give keys and fingerprints of the store's length that are spread over the
     * index like random ones.
     */
    private static void fill(JdbcTemplate jdbc, String table, long from, long to) {
        long now = System.currentTimeMillis();
        jdbc.update("INSERT INTO " + table + " (idempotency_key, business_type, fingerprint, status, owner_token,"
                + " lease_expire_time, response_type, response_data, create_time, expire_time)"
                + " SELECT CONCAT(?, MD5(seq)), 'order', SHA2(seq, 256), 'COMPLETED', MD5(-seq), ?, 'value',"
                + " CONCAT(?, LPAD(seq, 12, '0'), ?), ?, ? FROM seq_" + from + "_to_" + to,
                KEY_PREFIX, now + LEASE_MILLIS, GrowthEnv.JSON_HEAD, GrowthEnv.jsonTail(PAYLOAD_BYTES - 24), now,
                now + TTL_MILLIS);
    }

    private static String measure(JdbcTemplate jdbc, JdbcIdempotencyStore store, String table, long target, long rows,
            long fillNanos, double settleSeconds, int claims, int threads) throws Exception {
        List<String> keys = java.util.Collections.synchronizedList(new ArrayList<>(claims + WARMUP_CLAIMS));
        run(store, keys, WARMUP_CLAIMS, threads, null);
        long[] samples = new long[claims];
        long started = System.nanoTime();
        run(store, keys, claims, threads, samples);
        double seconds = (System.nanoTime() - started) / 1e9;
        Arrays.sort(samples);
        // sizes as InnoDB reports them, before the measured rows are removed; its statistics lag without ANALYZE
        jdbc.queryForList("ANALYZE TABLE " + table);
        List<Long> size = jdbc.queryForList("SELECT data_length + index_length FROM information_schema.tables"
                + " WHERE table_schema = DATABASE() AND table_name = ?", Long.class, table);
        for (int i = 0; i < keys.size(); i += 1000) {
            List<String> batch = keys.subList(i, Math.min(keys.size(), i + 1000));
            jdbc.update("DELETE FROM " + table + " WHERE idempotency_key IN ("
                    + String.join(",", java.util.Collections.nCopies(batch.size(), "?")) + ")", batch.toArray());
        }
        return String.format(Locale.ROOT, "{\"targetRows\":%d,\"liveRows\":%d,\"fillSeconds\":%.1f,"
                + "\"settleSeconds\":%.1f,"
                + "\"tableBytes\":%d,\"p50Micros\":%.0f,\"p90Micros\":%.0f,\"p99Micros\":%.0f,\"p999Micros\":%.0f,"
                + "\"maxMicros\":%.0f,\"meanMicros\":%.0f,\"claimsPerSecond\":%.0f}",
                target, rows, fillNanos / 1e9, settleSeconds, size.isEmpty() ? -1 : size.get(0),
                percentile(samples, 0.50), percentile(samples, 0.90), percentile(samples, 0.99),
                percentile(samples, 0.999), samples[samples.length - 1] / 1e3,
                Arrays.stream(samples).average().orElse(0) / 1e3, claims / seconds);
    }

    /**
     * Waits (at most {@value #SETTLE_SECONDS} s) until InnoDB has flushed most of the pages the
     * bulk fill dirtied (down to a tenth of the pool): a table that grew over months has no such backlog, and flushing it would
     * otherwise show up in the claims' tail latency.
     *
     * @return the seconds waited
     */
    private static double settle(JdbcTemplate jdbc) throws InterruptedException {
        long started = System.nanoTime();
        while (System.nanoTime() - started < SETTLE_SECONDS * 1_000_000_000L) {
            Map<String, Long> status = new HashMap<>();
            jdbc.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_pages_dirty',"
                    + " 'Innodb_buffer_pool_pages_total')", row -> {
                        status.put(row.getString(1), row.getLong(2));
                    });
            long dirty = status.getOrDefault("Innodb_buffer_pool_pages_dirty", 0L);
            long total = status.getOrDefault("Innodb_buffer_pool_pages_total", 1L);
            // a tenth: the server is shared, others' writes keep some pages dirty all the time
            if (dirty * 10 <= total) {
                break;
            }
            Thread.sleep(500);
        }
        return (System.nanoTime() - started) / 1e9;
    }

    /** {@code count} claims of fresh keys over {@code threads} threads; latencies into {@code samples} when given. */
    private static void run(JdbcIdempotencyStore store, List<String> keys, int count, int threads,
            long[] samples) throws Exception {
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        String key = KEY_PREFIX + TraceIds.generate();
                        Claim claim = new Claim(key, "order", GrowthEnv.fingerprint(key), TraceIds.generate(),
                                LEASE_MILLIS, TTL_MILLIS);
                        long started = System.nanoTime();
                        ClaimResult result = store.claim(claim);
                        long took = System.nanoTime() - started;
                        if (!result.owned()) {
                            throw new IllegalStateException("fresh key not claimed: " + key);
                        }
                        keys.add(key);
                        if (samples != null) {
                            samples[i] = took;
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** Nearest-rank percentile of sorted nanoseconds, in microseconds. */
    static double percentile(long[] sorted, double quantile) {
        int rank = (int) Math.ceil(quantile * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e3;
    }
}
