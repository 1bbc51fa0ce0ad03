package io.github.resiliencestarter.idempotent.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyInProgressException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.idempotent.IdempotencyOutcome;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.IdempotentReplayException;
import io.github.resiliencestarter.idempotent.IdempotentResult;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import io.github.resiliencestarter.idempotent.StoredResponse;
import io.github.resiliencestarter.idempotent.support.AesGcmPayloadProtection;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.testsupport.Eventually;
import java.lang.reflect.Type;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link IdempotencyStore} must show, run against each store on its real
 * server. Subclasses provide the store; a third-party store runs the same suite from this
 * module's test jar (see {@code docs/extending.md}).
 */
public abstract class IdempotencyStoreContractTest {

    protected final String run = TraceIds.generate().substring(0, 8);

    private final List<ExecutorService> pools = new ArrayList<>();

    protected abstract IdempotencyStore store();

    @AfterEach
    void stopPools() {
        pools.forEach(ExecutorService::shutdownNow);
    }

    /** Whether the claim's lease has run out: the record says so, or is gone (a store may end it with the lease). */
    private boolean leaseRanOut(String key) {
        IdempotencyRecord record = store().find(key);
        return record == null || record.isLeaseExpired(System.currentTimeMillis());
    }

    protected String key(String name) {
        return "test:" + run + ":" + name;
    }

    protected IdempotentExecutor executor() {
        return IdempotentExecutor.builder(store(), new Fastjson2ResponseCodec()).build();
    }

    protected static IdempotentCall call(String key, String fingerprint, Type type, IdempotencyConfig config) {
        return new IdempotentCall("Orders.create", key, fingerprint, type, config);
    }

    @Test
    void I3_aClaimIsWonOnceAndThenReportedAsExisting() {
        String key = key("claim");
        assertThat(store().claim(new Claim(key, "op", "fp", "owner-a", 10_000, 60_000)).outcome())
                .isEqualTo(ClaimResult.Outcome.CLAIMED);
        ClaimResult second = store().claim(new Claim(key, "op", "fp", "owner-b", 10_000, 60_000));
        assertThat(second.outcome()).isEqualTo(ClaimResult.Outcome.EXISTS);
        assertThat(second.existing().ownerToken()).isEqualTo("owner-a");
        assertThat(second.existing().status()).isEqualTo(IdempotencyStatus.IN_PROGRESS);
        assertThat(second.existing().fingerprint()).isEqualTo("fp");
    }

    @Test
    void I3_andIP2_exactlyOneExecutionAmong64ConcurrentDuplicatesFiftyTimesOver() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(64);
        pools.add(pool);
        IdempotentExecutor executor = executor();
        IdempotencyConfig config = IdempotencyConfig.custom().waitTimeout(Duration.ofSeconds(10)).build();
        for (int repetition = 0; repetition < 50; repetition++) {
            String key = key("race-" + repetition);
            AtomicInteger executions = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> results = new ArrayList<>();
            for (int t = 0; t < 64; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        return executor.execute(call(key, "fp", String.class, config), () -> {
                            executions.incrementAndGet();
                            Thread.sleep(20);
                            return "order-" + Thread.currentThread().getName();
                        }).value();
                    } catch (Throwable ex) {
                        throw new AssertionError(ex);
                    }
                }));
            }
            start.countDown();
            Set<String> distinct = ConcurrentHashMap.newKeySet();
            for (Future<String> result : results) {
                distinct.add(result.get(30, TimeUnit.SECONDS));
            }
            assertThat(executions.get()).as("executions in repetition %d", repetition).isEqualTo(1);
            assertThat(distinct).as("results in repetition %d", repetition).hasSize(1);
        }
    }

    @Test
    void I2_andIP5_aDuplicateIsNeverExecutedAndGetsTheFirstResult() throws Throwable {
        String key = key("dup");
        AtomicInteger executions = new AtomicInteger();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();
        IdempotentResult<String> first = executor().execute(call(key, "fp", String.class, config),
                () -> "first-" + executions.incrementAndGet());
        IdempotentResult<String> second = executor().execute(call(key, "fp", String.class, config),
                () -> "second-" + executions.incrementAndGet());

        assertThat(first.replayed()).isFalse();
        assertThat(second.replayed()).isTrue();
        assertThat(second.value()).isEqualTo("first-1");
        assertThat(executions.get()).isEqualTo(1);
    }

    @Test
    void I5_theReplayKeepsTheDeclaredGenericType() throws Throwable {
        String key = key("typed");
        Type type = IdempotencyStoreContractTest.class.getDeclaredMethod("envelopeOfString").getGenericReturnType();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();
        executor().execute(call(key, "fp", type, config), () -> new Envelope<>("ORDER-9"));
        IdempotentResult<Object> replay = executor().execute(call(key, "fp", type, config), () -> null);

        assertThat(replay.replayed()).isTrue();
        assertThat(replay.value()).isInstanceOf(Envelope.class);
        assertThat(((Envelope<?>) replay.value()).getData()).isInstanceOf(String.class).isEqualTo("ORDER-9");
    }

    @Test
    void voidAndNullResultsReplay() throws Throwable {
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();
        AtomicInteger executions = new AtomicInteger();
        executor().execute(call(key("void"), "fp", void.class, config), () -> executions.incrementAndGet());
        IdempotentResult<Object> replay = executor().execute(call(key("void"), "fp", void.class, config),
                () -> executions.incrementAndGet());
        assertThat(replay.replayed()).isTrue();
        assertThat(replay.value()).isNull();
        executor().execute(call(key("null"), "fp", String.class, config), () -> null);
        assertThat(executor().execute(call(key("null"), "fp", String.class, config), () -> "x").value()).isNull();
        assertThat(executions.get()).isEqualTo(1);
    }

    @Test
    void aDifferentPayloadWithTheSameKeyIsRefused() throws Throwable {
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();
        executor().execute(call(key("reuse"), "fp-1", String.class, config), () -> "first");
        AtomicInteger executions = new AtomicInteger();
        assertThatThrownBy(() -> executor().execute(call(key("reuse"), "fp-2", String.class, config),
                () -> "second-" + executions.incrementAndGet())).isInstanceOf(IdempotencyKeyReusedException.class);
        assertThat(executions.get()).isZero();
    }

    @Test
    void inProgressRejectAnswersAtOnceAndWaitReplaysWhenTheFirstCompletes() throws Exception {
        String key = key("in-progress");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        pools.add(pool);
        Future<String> first = pool.submit(() -> {
            try {
                return executor().execute(call(key, "fp", String.class, IdempotencyConfig.ofDefaults()), () -> {
                    running.countDown();
                    finish.await();
                    return "first";
                }).value();
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        });
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

        IdempotencyConfig reject = IdempotencyConfig.custom().onInProgress(InProgressStrategy.REJECT).build();
        long start = System.nanoTime();
        assertThatThrownBy(() -> executor().execute(call(key, "fp", String.class, reject), () -> "dup"))
                .isInstanceOf(IdempotencyInProgressException.class)
                .satisfies(e -> assertThat(((IdempotencyInProgressException) e).retryAfterSeconds()).isPositive());
        // well below the 5 s a waiting duplicate would spend before its own 409
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));

        IdempotencyConfig shortWait = IdempotencyConfig.custom().waitTimeout(Duration.ofMillis(150)).build();
        assertThatThrownBy(() -> executor().execute(call(key, "fp", String.class, shortWait), () -> "dup"))
                .isInstanceOf(IdempotencyInProgressException.class);

        Future<String> waiting = pool.submit(() -> {
            try {
                return executor().execute(call(key, "fp", String.class, IdempotencyConfig.ofDefaults()),
                        () -> "dup").value();
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        });
        Thread.sleep(100);
        finish.countDown();
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo("first");
    }

    @Test
    void aFailedExecutionReleasesTheKeySoTheClientCanTryAgain() throws Throwable {
        String key = key("release");
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();
        assertThatThrownBy(() -> executor().execute(call(key, "fp", String.class, config), () -> {
            throw new IllegalStateException("payment declined");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(store().find(key)).isNull();
        assertThat(executor().execute(call(key, "fp", String.class, config), () -> "second try").value())
                .isEqualTo("second try");
    }

    @Test
    void aLeaseLeftByACrashedOwnerIsTakenOverAndTheLateOwnerIsFencedOff() throws Throwable {
        String key = key("takeover");
        // the "crashed" owner claims with a short lease and never completes
        assertThat(store().claim(new Claim(key, "op", "fp", "crashed", 300, 60_000)).owned()).isTrue();
        Eventually.waitUntil("the crashed owner's lease ran out",
                () -> leaseRanOut(key));

        AtomicInteger executions = new AtomicInteger();
        IdempotentResult<String> recovered = executor().execute(call(key, "fp", String.class,
                IdempotencyConfig.ofDefaults()), () -> "recovered-" + executions.incrementAndGet());
        assertThat(recovered.replayed()).isFalse();
        assertThat(recovered.value()).isEqualTo("recovered-1");

        // the former owner wakes up: its completion and release change nothing
        assertThat(store().complete(new Completion(key, "crashed", StoredResponse.value("\"late\""), 60_000))).isFalse();
        assertThat(store().release(key, "crashed")).isFalse();
        assertThat(store().extendLease(key, "crashed", 60_000)).isFalse();
        IdempotencyRecord record = store().find(key);
        assertThat(record.status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(record.response()).isEqualTo(StoredResponse.value("\"recovered-1\""));
    }

    @Test
    void aTakeoverWithAnotherPayloadIsRefusedAndTheOriginalPayloadNeverGetsAnotherPayloadsResponse()
            throws Throwable {
        String key = key("takeover-other-payload");
        assertThat(store().claim(new Claim(key, "op", "original", "crashed", 300, 60_000)).owned()).isTrue();
        Eventually.waitUntil("the crashed owner's lease ran out", () -> leaseRanOut(key));

        AtomicInteger executions = new AtomicInteger();
        assertThatThrownBy(() -> executor().execute(call(key, "other", String.class, IdempotencyConfig.ofDefaults()),
                () -> "other-" + executions.incrementAndGet())).isInstanceOf(IdempotencyKeyReusedException.class);
        assertThat(executions).hasValue(0);

        IdempotentResult<String> retried = executor().execute(call(key, "original", String.class,
                IdempotencyConfig.ofDefaults()), () -> "original-" + executions.incrementAndGet());
        assertThat(retried.replayed()).isFalse();
        assertThat(retried.value()).isEqualTo("original-1");
        assertThatThrownBy(() -> executor().execute(call(key, "other", String.class, IdempotencyConfig.ofDefaults()),
                () -> "other-" + executions.incrementAndGet())).isInstanceOf(IdempotencyKeyReusedException.class);
        assertThat(executor().execute(call(key, "original", String.class, IdempotencyConfig.ofDefaults()),
                () -> "never").value()).isEqualTo("original-1");
        assertThat(executions).hasValue(1);
    }

    @Test
    void aLeaseExpiryRaceLeavesOneCompletedRecordAndTheLateOwnerIsRejectedAndCounted() throws Throwable {
        String key = key("lease-race");
        List<IdempotencyOutcome> outcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
        IdempotentExecutor executor = IdempotentExecutor.builder(store(), new Fastjson2ResponseCodec())
                .observer((operation, outcome) -> outcomes.add(outcome)).build();
        // a lease kept only up to a short keep limit: the first execution outlives it
        IdempotencyConfig shortLease = IdempotencyConfig.custom().lease(Duration.ofMillis(250))
                .keepLimit(Duration.ofMillis(300)).build();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pools.add(pool);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch takenOver = new CountDownLatch(1);
        Future<String> late = pool.submit(() -> {
            try {
                return executor.execute(call(key, "fp", String.class, shortLease), () -> {
                    running.countDown();
                    // the first owner finishes only after another execution took its key over
                    takenOver.await(30, TimeUnit.SECONDS);
                    return "late owner";
                }).value();
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        });
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        Eventually.waitUntil("the first owner's lease ran out",
                () -> leaseRanOut(key));
        // another node: the first owner's own node holds the key while its work runs
        IdempotentExecutor otherNode = IdempotentExecutor.builder(store(), new Fastjson2ResponseCodec())
                .observer((operation, outcome) -> outcomes.add(outcome)).build();
        IdempotentResult<String> takeover = otherNode.execute(call(key, "fp", String.class, shortLease),
                () -> "new owner");
        takenOver.countDown();
        assertThat(takeover.replayed()).isFalse();
        assertThat(late.get(30, TimeUnit.SECONDS)).isEqualTo("late owner");

        IdempotencyRecord record = store().find(key);
        assertThat(record.status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(record.response()).isEqualTo(StoredResponse.value("\"new owner\""));
        assertThat(outcomes).containsOnlyOnce(IdempotencyOutcome.LEASE_LOST).containsOnlyOnce(IdempotencyOutcome.EXECUTED);
    }

    @Test
    void theOwnerCanExtendItsLeaseAndOthersCannot() throws Exception {
        String key = key("extend");
        long claimedAt = System.currentTimeMillis();
        store().claim(new Claim(key, "op", "fp", "owner", 1_000, 60_000));
        assertThat(store().extendLease(key, "owner", 60_000)).isTrue();
        assertThat(store().extendLease(key, "intruder", 60_000)).isFalse();
        Eventually.waitPast("the lease as first claimed", claimedAt + 1_000 + 100);
        assertThat(store().claim(new Claim(key, "op", "fp", "intruder", 1_000, 60_000)).outcome())
                .isEqualTo(ClaimResult.Outcome.EXISTS);
    }

    @Test
    void aBatchOfLeaseExtensionsExtendsTheOwnedLeasesAndRefusesTheLostOnes() throws Exception {
        String first = key("batch-first");
        String second = key("batch-second");
        String stolen = key("batch-stolen");
        long claimedAt = System.currentTimeMillis();
        for (String key : List.of(first, second, stolen)) {
            store().claim(new Claim(key, "op", "fp", "owner", 1_000, 60_000));
        }
        boolean[] extended = store().extendLeases(List.of(new LeaseExtension(first, "owner", 60_000),
                new LeaseExtension(stolen, "intruder", 60_000), new LeaseExtension(second, "owner", 60_000),
                new LeaseExtension(key("batch-never-claimed"), "owner", 60_000)));

        assertThat(extended).containsExactly(true, false, true, false);
        Eventually.waitPast("the leases as first claimed", claimedAt + 1_000 + 100);
        assertThat(store().claim(new Claim(first, "op", "fp", "intruder", 1_000, 60_000)).outcome())
                .isEqualTo(ClaimResult.Outcome.EXISTS);
        assertThat(store().claim(new Claim(second, "op", "fp", "intruder", 1_000, 60_000)).outcome())
                .isEqualTo(ClaimResult.Outcome.EXISTS);
        assertThat(store().claim(new Claim(stolen, "op", "fp", "intruder", 1_000, 60_000)).outcome())
                .isEqualTo(ClaimResult.Outcome.TAKEN_OVER);
    }

    @Test
    void I6_recordsExpireAfterTheirTtlAndTheKeyCanBeUsedAgain() throws Throwable {
        String key = key("ttl");
        Duration ttl = Duration.ofMillis(1_500);
        IdempotencyConfig shortLived = IdempotencyConfig.custom().ttl(ttl).build();
        long before = System.currentTimeMillis();
        executor().execute(call(key, "fp", String.class, shortLived), () -> "first");
        assertThat(store().find(key)).isNotNull();
        Eventually.waitUntil("the record expired", () -> store().find(key) == null);
        // not before its time to live (a store's clock may round by a few milliseconds)
        assertThat(System.currentTimeMillis() - before).isGreaterThanOrEqualTo(ttl.toMillis() - 10);
        assertThat(executor().execute(call(key, "fp", String.class, shortLived), () -> "again").value())
                .isEqualTo("again");
    }

    @Test
    void anOversizeResponseIsNotExecutedTwiceAndItsReplayFailsClearly() throws Throwable {
        String key = key("big");
        IdempotencyConfig small = IdempotencyConfig.custom().maxResponseBytes(100).build();
        AtomicInteger executions = new AtomicInteger();
        String big = "x".repeat(500);
        assertThat(executor().execute(call(key, "fp", String.class, small), () -> {
            executions.incrementAndGet();
            return big;
        }).value()).isEqualTo(big);
        assertThatThrownBy(() -> executor().execute(call(key, "fp", String.class, small), () -> {
            executions.incrementAndGet();
            return big;
        })).isInstanceOf(IdempotentReplayException.class).hasMessageContaining("larger than 100 bytes");
        assertThat(executions.get()).isEqualTo(1);
    }

    @Test
    void heartbeatsKeepALongExecutionsClaim() throws Throwable {
        String key = key("heartbeat");
        long lease = 1_000;
        IdempotencyConfig shortLease = IdempotencyConfig.custom().lease(Duration.ofMillis(lease)).build();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pools.add(pool);
        Future<String> slow = pool.submit(() -> {
            try {
                return executor().execute(call(key, "fp", String.class, shortLease), () -> {
                    running.countDown();
                    finish.await(30, TimeUnit.SECONDS);
                    return "slow";
                }).value();
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        });
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        long claimedBefore = System.currentTimeMillis();
        // once the claim is older than two leases, only heartbeats can have kept it alive
        Eventually.waitPast("two leases since the claim", claimedBefore + 2 * lease);
        assertThat(store().claim(new Claim(key, "op", "fp", "intruder", 1_000, 60_000)).outcome())
                .isEqualTo(ClaimResult.Outcome.EXISTS);
        finish.countDown();
        assertThat(slow.get(30, TimeUnit.SECONDS)).isEqualTo("slow");
    }

    @Test
    void aResponseSealedAtRestIsUnreadableInTheStoreAndReplaysAsTheFirstResult() throws Throwable {
        String key = key("sealed");
        byte[] aesKey = new byte[32];
        new SecureRandom().nextBytes(aesKey);
        IdempotentExecutor executor = IdempotentExecutor.builder(store(), new Fastjson2ResponseCodec())
                .payloadProtection(new AesGcmPayloadProtection(Map.of("k1", aesKey), "k1")).build();
        IdempotentCall call = call(key, "fp", String.class, IdempotencyConfig.ofDefaults());
        AtomicInteger executions = new AtomicInteger();

        String first = executor.execute(call, () -> "password=hunter2 #" + executions.incrementAndGet()).value();
        IdempotentResult<String> replay = executor.execute(call, () -> "ran again " + executions.incrementAndGet());

        assertThat(replay.replayed()).isTrue();
        assertThat(replay.value()).isEqualTo(first).isEqualTo("password=hunter2 #1");
        String stored = store().find(call.storedKey()).response().payload();
        assertThat(stored).startsWith(AesGcmPayloadProtection.PREFIX).doesNotContain("hunter2");
        assertThat(executions).hasValue(1);
    }

    @Test
    void aResponsePlantedUnsealedInTheStoreIsRefusedNotReplayed() throws Throwable {
        String key = key("planted");
        byte[] aesKey = new byte[32];
        new SecureRandom().nextBytes(aesKey);
        IdempotentExecutor executor = IdempotentExecutor.builder(store(), new Fastjson2ResponseCodec())
                .payloadProtection(new AesGcmPayloadProtection(Map.of("k1", aesKey), "k1")).build();
        IdempotentCall call = call(key, "fp", String.class, IdempotencyConfig.ofDefaults());
        // whoever can write to the store writes a completed record in the clear
        assertThat(store().claim(new Claim(call.storedKey(), call.operation(), call.fingerprint(), "intruder", 60_000,
                60_000)).owned()).isTrue();
        assertThat(store().complete(new Completion(call.storedKey(), "intruder", StoredResponse.value("\"forged\""),
                60_000))).isTrue();
        AtomicInteger executions = new AtomicInteger();

        assertThatThrownBy(() -> executor.execute(call, () -> "ran " + executions.incrementAndGet()))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
        assertThat(executions).as("nothing runs on an unreadable record").hasValue(0);
    }

    @Test
    void I5_aResultThatCannotBeEncodedIsReturnedOnceAndTheKeyNeverExecutesAgain() throws Throwable {
        String key = key("unencodable");
        ResponseCodec failingCodec = new Fastjson2ResponseCodec() {
            @Override
            public String encode(Object value, Type type) {
                throw new IllegalStateException("cannot encode " + value);
            }
        };
        IdempotentExecutor executor = IdempotentExecutor.builder(store(), failingCodec).build();
        AtomicInteger executions = new AtomicInteger();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();

        IdempotentResult<String> first = executor.execute(call(key, "fp", String.class, config),
                () -> "result " + executions.incrementAndGet());
        assertThat(first.value()).isEqualTo("result 1");
        AtomicInteger replays = new AtomicInteger();
        assertThatThrownBy(() -> executor.execute(call(key, "fp", String.class, config),
                () -> "result " + executions.incrementAndGet(), replays::incrementAndGet))
                .isInstanceOf(IdempotentReplayException.class).hasMessageContaining("could not be stored");
        assertThat(executions).hasValue(1);
        assertThat(replays).hasValue(1);
        assertThat(store().find(key).status()).isEqualTo(IdempotencyStatus.COMPLETED);
    }

    /**
     * Work that ignores its deadline's interrupt still commits its effects when it returns, so it
     * keeps its key past the deadline and the margin (the simulator found the second run that
     * letting it go allowed, seed 9498327017346); only past the keep limit is the key let go.
     */
    @Test
    void I6_aHungCallIgnoringInterruptsKeepsItsKeyPastItsDeadlineUntilTheKeepLimit() throws Throwable {
        String key = key("hung");
        IdempotentExecutor executor = executor();
        IdempotencyConfig config = IdempotencyConfig.custom().leaseMargin(Duration.ofMillis(100))
                .keepLimit(Duration.ofSeconds(2)).waitTimeout(Duration.ZERO).build();
        // a first command on a fresh connection may take longer than the deadline below
        executor.execute(call(key("hung-warm-up"), "fp", String.class, config), () -> "warm");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pools.add(pool);
        Future<?> hung = pool.submit(() -> {
            TraceContext withDeadline = TraceContext.empty().withDeadline(Deadline.after(Duration.ofMillis(300)));
            try (TraceScope scope = TraceContextHolder.open(withDeadline)) {
                return executor.execute(call(key, "fp", String.class, config), () -> {
                    started.countDown();
                    boolean released = false;
                    while (!released) {
                        try {
                            released = release.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException ignored) {
                            // hung work that swallows interrupts
                        }
                    }
                    return "late";
                }).value();
            } catch (Throwable failure) {
                return failure.toString();
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();

        // well past the deadline (300 ms) plus the margin (100 ms), the key is still the hung call's
        Thread.sleep(1_000);
        assertThat(leaseRanOut(key)).as("lease lapsed %d ms after the start", (System.nanoTime() - start) / 1_000_000)
                .isFalse();
        assertThatThrownBy(() -> executor.execute(call(key, "fp", String.class, config), () -> "run twice"))
                .isInstanceOf(IdempotencyInProgressException.class);
        // past the keep limit it is let go: work that never returns does not hold its key for ever
        Eventually.waitUntil("the hung call's lease ran out after the keep limit", () -> leaseRanOut(key));
        IdempotentExecutor otherNode = IdempotentExecutor.builder(store(), new Fastjson2ResponseCodec()).build();
        assertThat(otherNode.execute(call(key, "fp", String.class, config), () -> "taken over").value())
                .isEqualTo("taken over");
        release.countDown();
        hung.get(10, TimeUnit.SECONDS);
        assertThat(executor.execute(call(key, "fp", String.class, config), () -> "never").value())
                .isEqualTo("taken over");
    }

    /** The declared type of the typed-replay test: a generic wrapper like a service's {@code Result<T>}. */
    private static Envelope<String> envelopeOfString() {
        return null;
    }

    /**
     * A generic wrapper for the typed-replay test.
     *
     * @param <T> the payload type
     */
    public static class Envelope<T> {

        private T data;

        /** For the codec. */
        public Envelope() {
        }

        Envelope(T data) {
            this.data = data;
        }

        /** @return the payload */
        public T getData() {
            return data;
        }

        /** @param data the payload */
        public void setData(T data) {
            this.data = data;
        }
    }
}
