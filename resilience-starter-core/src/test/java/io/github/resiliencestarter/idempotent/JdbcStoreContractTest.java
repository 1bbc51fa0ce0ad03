package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContractTest;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyPurger;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import static org.assertj.core.api.Assertions.assertThat;

/** The contract on a real MySQL-compatible server. */
class JdbcStoreContractTest extends IdempotencyStoreContractTest {

    private final JdbcIdempotencyStore store = StoreFixtures.mysqlStore();

    private final JdbcTemplate jdbc = new JdbcTemplate(StoreFixtures.mysqlDataSource());

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    private Long expireTime(String key) {
        return jdbc.queryForObject("SELECT expire_time FROM resilience_idempotency WHERE idempotency_key = ?",
                Long.class, key);
    }

    @Test
    void IP4_everyRowCarriesAnExpiryTimeAndTheCompletionSetsItFromItsOwnTtl() {
        String key = key("expiry-column");
        long beforeClaim = System.currentTimeMillis();
        store.claim(new Claim(key, "op", "fp", "owner", 5_000, 60_000));
        assertThat(expireTime(key)).isBetween(beforeClaim + 60_000, System.currentTimeMillis() + 60_000);

        long beforeCompletion = System.currentTimeMillis();
        assertThat(store.complete(new Completion(key, "owner", new StoredResponse("value", "\"done\""), 120_000)))
                .isTrue();
        // counted from the completion: a completion that left the claim's expiry would keep 60 s
        assertThat(expireTime(key)).isBetween(beforeCompletion + 120_000, System.currentTimeMillis() + 120_000);
    }

    @Test
    void I6_expiredRowsAreIgnoredOnReadAndPurgedInBatches() throws Exception {
        for (int i = 0; i < 25; i++) {
            store.claim(new Claim(key("purge-" + i), "op", "fp", "owner", 100, 100));
        }
        String live = key("purge-live");
        store.claim(new Claim(live, "op", "fp", "owner", 10_000, 60_000));
        Thread.sleep(200);
        assertThat(store.find(key("purge-0"))).isNull();

        long purged = new JdbcIdempotencyPurger(store, Duration.ofMinutes(1), 10).purgeNow();

        assertThat(purged).isGreaterThanOrEqualTo(25);
        Integer left = jdbc.queryForObject("SELECT COUNT(*) FROM resilience_idempotency WHERE idempotency_key LIKE ?",
                Integer.class, "test:" + run + ":purge-%");
        assertThat(left).isEqualTo(1);
        assertThat(store.find(live)).isNotNull();
    }
}
