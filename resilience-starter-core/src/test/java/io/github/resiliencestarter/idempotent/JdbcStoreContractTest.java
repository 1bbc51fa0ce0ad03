package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContractTest;
import io.github.resiliencestarter.idempotent.jdbc.JdbcDialect;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyPurger;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The contract, and what only the JDBC store does, on a real MySQL-compatible server; subclasses
 * run the same on another database.
 */
class JdbcStoreContractTest extends IdempotencyStoreContractTest {

    private JdbcIdempotencyStore store;

    /** @return the database under test, with the idempotency table */
    protected DataSource dataSource() {
        return StoreFixtures.mysqlDataSource();
    }

    /** @return the dialect the store must find on that database */
    protected JdbcDialect expectedDialect() {
        return JdbcDialect.MYSQL;
    }

    @Override
    protected JdbcIdempotencyStore store() {
        if (store == null) {
            store = StoreFixtures.jdbcStore(dataSource());
        }
        return store;
    }

    private JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource());
    }

    @Test
    void theStoreRecognisesItsDatabase() {
        assertThat(store().dialect()).isEqualTo(expectedDialect());
    }

    private Long expireTime(String key) {
        return jdbc().queryForObject("SELECT expire_time FROM resilience_idempotency WHERE idempotency_key = ?",
                Long.class, key);
    }

    @Test
    void IP4_everyRowCarriesAnExpiryTimeAndTheCompletionSetsItFromItsOwnTtl() {
        String key = key("expiry-column");
        long beforeClaim = System.currentTimeMillis();
        store().claim(new Claim(key, "op", "fp", "owner", 5_000, 60_000));
        assertThat(expireTime(key)).isBetween(beforeClaim + 60_000, System.currentTimeMillis() + 60_000);

        long beforeCompletion = System.currentTimeMillis();
        assertThat(store().complete(new Completion(key, "owner", new StoredResponse("value", "\"done\""), 120_000)))
                .isTrue();
        // counted from the completion: a completion that left the claim's expiry would keep 60 s
        assertThat(expireTime(key)).isBetween(beforeCompletion + 120_000, System.currentTimeMillis() + 120_000);
    }

    @Test
    void I6_expiredRowsAreIgnoredOnReadAndPurgedInBatches() throws Exception {
        for (int i = 0; i < 25; i++) {
            store().claim(new Claim(key("purge-" + i), "op", "fp", "owner", 100, 100));
        }
        String live = key("purge-live");
        store().claim(new Claim(live, "op", "fp", "owner", 10_000, 60_000));
        Thread.sleep(200);
        assertThat(store().find(key("purge-0"))).isNull();

        long purged = new JdbcIdempotencyPurger(store(), Duration.ofMinutes(1), 10).purgeNow();

        assertThat(purged).isGreaterThanOrEqualTo(25);
        Integer left = jdbc().queryForObject("SELECT COUNT(*) FROM resilience_idempotency WHERE idempotency_key LIKE ?",
                Integer.class, "test:" + run + ":purge-%");
        assertThat(left).isEqualTo(1);
        assertThat(store().find(live)).isNotNull();
    }

    @Test
    void aDuplicateClaimInsideTheCallersTransactionLeavesThatTransactionUsable() {
        String key = key("in-caller-tx");
        store().claim(new Claim(key, "op", "fp", "owner-a", 10_000, 60_000));
        // no transaction manager: the claim runs in the caller's transaction, where an error would abort it on PostgreSQL
        JdbcIdempotencyStore joining = new JdbcIdempotencyStore(dataSource(), null, JdbcIdempotencyStore.DEFAULT_TABLE,
                TimeSource.SYSTEM);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));

        Integer afterwards = transaction.execute(status -> {
            assertThat(joining.claim(new Claim(key, "op", "fp", "owner-b", 10_000, 60_000)).owned()).isFalse();
            return jdbc().queryForObject("SELECT COUNT(*) FROM resilience_idempotency WHERE idempotency_key = ?",
                    Integer.class, key);
        });

        assertThat(afterwards).isEqualTo(1);
    }

    @Test
    void aResultWithEveryKindOfCharacterReplaysExactly() throws Throwable {
        String key = key("characters");
        // a NUL, other control characters, non-ASCII and a character outside the BMP: JSON escapes what a column refuses
        String value = "a\u0000b\u0001\t\n é 中 \uD83D\uDE00 '\"\\";
        AtomicInteger executions = new AtomicInteger();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();
        executor().execute(call(key, "fp", String.class, config), () -> value + executions.incrementAndGet());

        IdempotentResult<String> replay = executor().execute(call(key, "fp", String.class, config),
                () -> value + executions.incrementAndGet());

        assertThat(replay.replayed()).isTrue();
        assertThat(replay.value()).isEqualTo(value + "1");
    }
}
