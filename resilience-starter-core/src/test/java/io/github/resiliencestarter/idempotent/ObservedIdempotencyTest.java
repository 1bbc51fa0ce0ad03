package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.rollout.EnforcementMode;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import io.github.resiliencestarter.rollout.Rollouts;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Observe mode of {@code @Idempotent}: the first call of a key claims and records as always; a
 * duplicate is counted as what enforcement would have done (replay, wait, 409, 422) and runs, as
 * without the annotation. Switching the same executor to enforce replays again.
 */
class ObservedIdempotencyTest {

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

    private final List<IdempotencyOutcome> outcomes = new CopyOnWriteArrayList<>();

    private final Rollouts rollouts = Rollouts.enforceAll();

    private final IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec())
            .observer((operation, outcome) -> outcomes.add(outcome)).rollouts(rollouts).build();

    private final AtomicInteger runs = new AtomicInteger();

    private IdempotentCall call(String key, Object payload, IdempotencyConfig config) {
        return IdempotentCall.builder("Orders.create", config).key(key).fingerprintOf(payload)
                .returnType(String.class).build();
    }

    private String work() {
        return "run-" + runs.incrementAndGet();
    }

    private void observe() {
        rollouts.prepare(new RolloutPolicy(EnforcementMode.OBSERVE, 100), Map.of()).run();
    }

    @Test
    void O1_anObservedDuplicateOfACompletedKeyRunsAndCountsAWouldReplay() throws Throwable {
        observe();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();

        IdempotentResult<String> first = executor.execute(call("k-1", "a", config), this::work);
        IdempotentResult<String> second = executor.execute(call("k-1", "a", config), this::work);
        IdempotentResult<String> reused = executor.execute(call("k-1", "other", config), this::work);

        assertThat(first.value()).isEqualTo("run-1");
        assertThat(second.value()).isEqualTo("run-2");
        assertThat(second.replayed()).isFalse();
        assertThat(reused.value()).isEqualTo("run-3");
        assertThat(outcomes).containsExactly(IdempotencyOutcome.EXECUTED, IdempotencyOutcome.WOULD_REPLAY,
                IdempotencyOutcome.WOULD_422);
        // the first call's record stands: switched to enforce, the key replays it
        rollouts.prepare(RolloutPolicy.ENFORCE_ALL, Map.of()).run();
        IdempotentResult<String> enforced = executor.execute(call("k-1", "a", config), this::work);
        assertThat(enforced.value()).isEqualTo("run-1");
        assertThat(enforced.replayed()).isTrue();
        assertThatThrownBy(() -> executor.execute(call("k-1", "other", config), this::work))
                .isInstanceOf(IdempotencyKeyReusedException.class);
        assertThat(runs).hasValue(3);
    }

    @Test
    void O1_anObservedDuplicateOfAKeyInProgressRunsInsteadOfWaitingOrBeingRefused() throws Throwable {
        observe();
        for (InProgressStrategy strategy : List.of(InProgressStrategy.WAIT, InProgressStrategy.REJECT)) {
            IdempotencyConfig config = IdempotencyConfig.custom().onInProgress(strategy).build();
            IdempotentCall call = call("k-" + strategy, "a", config);
            store.claim(new Claim(call.storedKey(), call.operation(), call.fingerprint(), "someone-else", 60_000,
                    60_000));

            assertThat(executor.execute(call, this::work).value()).startsWith("run-");
            // the asynchronous driver decides the same way
            CompletableFuture<IdempotentResult<String>> async = executor.executeAsync(call,
                    () -> CompletableFuture.completedFuture(work()), () -> { });
            assertThat(async.join().value()).startsWith("run-");
        }
        assertThat(outcomes).containsExactly(IdempotencyOutcome.WOULD_WAIT, IdempotencyOutcome.WOULD_WAIT,
                IdempotencyOutcome.WOULD_REJECT, IdempotencyOutcome.WOULD_REJECT);
        assertThat(runs).hasValue(4);
    }

    @Test
    void aNamedInstanceKeepsItsOwnModeBesideTheDefault() throws Throwable {
        rollouts.prepare(new RolloutPolicy(EnforcementMode.OBSERVE, 100),
                Map.of("Orders.create", RolloutPolicy.ENFORCE_ALL)).run();
        IdempotencyConfig config = IdempotencyConfig.ofDefaults();

        executor.execute(call("k-9", "a", config), this::work);
        IdempotentResult<String> duplicate = executor.execute(call("k-9", "a", config), this::work);

        assertThat(duplicate.replayed()).isTrue();
        assertThat(runs).hasValue(1);
    }
}
