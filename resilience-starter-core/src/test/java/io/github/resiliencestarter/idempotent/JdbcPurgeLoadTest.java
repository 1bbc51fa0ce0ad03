package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyPurger;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Rule I-6 at scale on the real MySQL-compatible server: 1 000 000 expired rows are purged in
 * batches while claims keep going, and claims stay fast (their p99 is reported). Subclasses run
 * the same on another database. Tagged "scale": the test command runs it on the Java 17 and Java 25
 * legs, not on every Boot line (docs/internals/testing.md); rule I-6 itself is checked on every leg by the
 * store contract.
 */
@Tag("scale")
class JdbcPurgeLoadTest {

    private static final int ROWS = 1_000_000;

    /** @return the database under test, with the idempotency table */
    protected DataSource dataSource() {
        return StoreFixtures.mysqlDataSource();
    }

    @Test
    void I6_aMillionExpiredRowsArePurgedInBatchesWithoutBlockingClaims() throws Exception {
        JdbcIdempotencyStore store = StoreFixtures.jdbcStore(dataSource());
        JdbcTemplate jdbc = new JdbcTemplate(dataSource());
        // portable SQL (MySQL, PostgreSQL): six cross-joined digit tables number a million rows
        String digits = "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4"
                + " UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)";
        String run = Long.toHexString(System.nanoTime());
        long insertStart = System.nanoTime();
        jdbc.update("INSERT INTO resilience_idempotency (idempotency_key, business_type, fingerprint, status,"
                + " owner_token, lease_expire_time, create_time, expire_time) SELECT CONCAT('purge:" + run + ":',"
                + " a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d + 100000 * g.d), 'op', 'fp', 'COMPLETED',"
                + " 'o', 0, 0, 1 FROM " + digits + " a, " + digits + " b, " + digits + " c, " + digits + " e, "
                + digits + " f, " + digits + " g");
        double insertSeconds = (System.nanoTime() - insertStart) / 1e9;

        AtomicBoolean purging = new AtomicBoolean(true);
        List<Long> claimNanos = new ArrayList<>();
        CompletableFuture<Void> claims = CompletableFuture.runAsync(() -> {
            int i = 0;
            while (purging.get()) {
                long start = System.nanoTime();
                store.claim(new Claim("live:" + run + ":" + i++, "op", "fp", "owner", 10_000, 60_000));
                claimNanos.add(System.nanoTime() - start);
            }
        });
        long purgeStart = System.nanoTime();
        long purged = new JdbcIdempotencyPurger(store, Duration.ofMinutes(1), 5_000).purgeNow();
        double purgeSeconds = (System.nanoTime() - purgeStart) / 1e9;
        purging.set(false);
        claims.get();

        List<Long> sorted = claimNanos.stream().sorted().toList();
        double p99 = sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1) / 1e6;
        System.out.printf("inserted %d expired rows in %.1f s; purged %d in %.1f s; %d claims meanwhile, p50 %.2f ms,"
                + " p99 %.2f ms%n", ROWS, insertSeconds, purged, purgeSeconds, sorted.size(),
                sorted.get(sorted.size() / 2) / 1e6, p99);
        assertThat(purged).isGreaterThanOrEqualTo(ROWS);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM resilience_idempotency WHERE idempotency_key LIKE ?",
                Integer.class, "purge:" + run + ":%")).isZero();
        assertThat(sorted).hasSizeGreaterThan(10);
        // claims never wait for the purge as a whole: no single claim takes anything near its duration
        assertThat(p99).isLessThan(purgeSeconds * 1000 / 4);
    }
}
