package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContractTest;
import io.github.resiliencestarter.testsupport.RedisCommandStats;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import org.junit.jupiter.api.Test;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import static org.assertj.core.api.Assertions.assertThat;

/** The contract on a real Redis server. */
class RedisStoreContractTest extends IdempotencyStoreContractTest {

    private final IdempotencyStore store = StoreFixtures.redisStore();

    private final StringRedisTemplate redis = StoreFixtures.redisTemplate();

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Test
    void IP4_everyWriteLeavesATimeToLiveOnTheKey() {
        String key = key("ttl-on-writes");
        store.claim(new Claim(key, "op", "fp", "owner", 5_000, 60_000));
        long afterClaim = redis.getExpire(key, java.util.concurrent.TimeUnit.MILLISECONDS);
        store.extendLease(key, "owner", 5_000);
        store.complete(new Completion(key, "owner", new StoredResponse("value", "\"done\""), 120_000));
        long afterComplete = redis.getExpire(key, java.util.concurrent.TimeUnit.MILLISECONDS);

        assertThat(afterClaim).isBetween(1L, 60_000L);
        assertThat(afterComplete).isBetween(60_001L, 120_000L);
    }

    @Test
    void batchedLeaseExtensionsArePipelinedAndStillLandAfterRedisLostItsScripts() {
        List<LeaseExtension> leases = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String key = key("pipelined-" + i);
            store.claim(new Claim(key, "op", "fp", "owner", 1_000, 60_000));
            leases.add(new LeaseExtension(key, "owner", 30_000));
        }
        // a restarted or flushed server answers EVALSHA with NOSCRIPT until the script is loaded again
        redis.execute((RedisCallback<Object>) connection -> {
            connection.scriptingCommands().scriptFlush();
            return null;
        });

        assertThat(store.leaseBatchSize()).isGreaterThan(leases.size());
        assertThat(store.extendLeases(leases)).containsExactly(true, true, true);
        for (LeaseExtension lease : leases) {
            assertThat(store.find(lease.key()).leaseExpiresAt() - System.currentTimeMillis()).isGreaterThan(20_000);
        }
    }

    @Test
    void aRecordKeepsNamesAndResponsesWithLineBreaksAndBackslashesIntact() {
        String key = key("free-text");
        String name = "orders\\create\nv2";
        store.claim(new Claim(key, name, "fp", "owner", 5_000, 60_000));
        assertThat(store.find(key).name()).isEqualTo(name);
        String body = "{\"note\":\"line one\nline two \\n\"}\n";
        store.complete(new Completion(key, "owner", new StoredResponse("value", body), 60_000));

        IdempotencyRecord record = store.find(key);
        assertThat(record.name()).isEqualTo(name);
        assertThat(record.fingerprint()).isEqualTo("fp");
        assertThat(record.response()).isEqualTo(new StoredResponse("value", body));
        assertThat(store.claim(new Claim(key, name, "fp", "other", 5_000, 60_000)).existing().response())
                .isEqualTo(new StoredResponse("value", body));
    }

    @Test
    void aCompletionWithoutAResponseIsToldApartFromAnEmptyOne() {
        String none = key("no-response");
        store.claim(new Claim(none, "op", "fp", "owner", 5_000, 60_000));
        store.complete(new Completion(none, "owner", new StoredResponse(StoredResponse.VOID, null), 60_000));
        String empty = key("empty-response");
        store.claim(new Claim(empty, "op", "fp", "owner", 5_000, 60_000));
        store.complete(new Completion(empty, "owner", new StoredResponse("value", ""), 60_000));

        assertThat(store.find(none).response()).isEqualTo(new StoredResponse(StoredResponse.VOID, null));
        assertThat(store.find(empty).response()).isEqualTo(new StoredResponse("value", ""));
    }

    @Test
    void aKeyHoldingAnotherTypeIsReportedAsACorruptedRecordNotAsAnOutage() {
        String key = key("other-type");
        redis.opsForHash().put(key, "st", "C");

        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> store.claim(new Claim(key, "op", "fp", "owner", 5_000, 60_000)))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
        assertThat(redis.opsForHash().get(key, "st")).isEqualTo("C");
        redis.delete(key);
    }

    @Test
    void aCompletedKeyOfAnOperationMostlyReplayedIsAnsweredByAReadWithoutTheClaimScript() {
        String key = key("replayed-by-read");
        StoreFixtures.mostlyReplayed(store, key, "read-first");
        long scripts = RedisCommandStats.calls(redis, "evalsha");
        long reads = RedisCommandStats.calls(redis, "get");

        int replays = 200;
        for (int i = 0; i < replays; i++) {
            ClaimResult replay = store.claim(new Claim(key, "read-first", "fp", "replay-" + i, 5_000, 60_000));
            assertThat(replay.existing()).isNotNull();
            assertThat(replay.existing().status()).isEqualTo(IdempotencyStatus.COMPLETED);
            assertThat(replay.existing().response().payload()).isEqualTo("\"done\"");
        }

        // other tests' leftover heartbeats may run a script meanwhile: far fewer than one per replay
        assertThat(RedisCommandStats.calls(redis, "evalsha") - scripts).isLessThan(replays / 10);
        assertThat(RedisCommandStats.calls(redis, "get") - reads).isGreaterThanOrEqualTo(replays);
    }

    @Test
    void aNewKeyOfAnOperationMostlyReplayedIsStillClaimedByTheScript() {
        StoreFixtures.mostlyReplayed(store, key("replayed-then-new"), "read-first-new");
        String fresh = key("new-after-replays");

        assertThat(store.claim(new Claim(fresh, "read-first-new", "fp", "new-owner", 5_000, 60_000)).owned()).isTrue();
        assertThat(store.find(fresh).ownerToken()).isEqualTo("new-owner");
        // in progress: the read does not answer it, the script does (the same record back)
        ClaimResult duplicate = store.claim(new Claim(fresh, "read-first-new", "fp", "other", 5_000, 60_000));
        assertThat(duplicate.owned()).isFalse();
        assertThat(duplicate.existing().status()).isEqualTo(IdempotencyStatus.IN_PROGRESS);
    }
}
