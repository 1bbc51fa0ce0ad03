package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An answer a fallback produced inside the execution is a stand-in: it releases the key (issue 45, item 6). */
class FallbackAnswersTest {

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

    private final IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec()).build();

    private final AtomicInteger runs = new AtomicInteger();

    private static IdempotentCall call(String key, IdempotencyConfig config) {
        return IdempotentCall.builder("Orders.create", config).key(key).returnType(String.class).build();
    }

    /** The work as a method whose @Retry or @CircuitBreaker fell back: what FallbackMethod tells the execution. */
    private String fellBack() {
        runs.incrementAndGet();
        IdempotentExecution execution = TraceContextHolder.current().idempotentExecution();
        assertThat(execution).isNotNull();
        execution.fallbackAnswered();
        return "queued, try later";
    }

    @Test
    void aFallbacksAnswerReleasesTheKeySoTheClientsRetryRunsForReal() throws Throwable {
        IdempotentCall call = call("fb-1", IdempotencyConfig.ofDefaults());
        assertThat(executor.execute(call, this::fellBack).value()).isEqualTo("queued, try later");
        assertThat(store.find(call.storedKey())).as("released").isNull();

        IdempotentResult<String> retried = executor.execute(call, () -> {
            runs.incrementAndGet();
            return "reserved";
        });
        assertThat(retried.replayed()).isFalse();
        assertThat(retried.value()).isEqualTo("reserved");
        assertThat(runs).hasValue(2);
        assertThat(executor.execute(call, () -> "never").value()).as("the real answer is kept").isEqualTo("reserved");
    }

    @Test
    void aMethodThatStoresFallbackAnswersReplaysThem() throws Throwable {
        IdempotentCall call = call("fb-2", IdempotencyConfig.custom()
                .onFallbackAnswer(FallbackAnswerHandling.STORE).build());
        executor.execute(call, this::fellBack);
        IdempotentResult<String> duplicate = executor.execute(call, () -> "never");
        assertThat(duplicate.replayed()).isTrue();
        assertThat(duplicate.value()).isEqualTo("queued, try later");
        assertThat(runs).hasValue(1);
    }

    @Test
    void aFallbackAfterAnAttemptCommittedWithTheKeyNeverLetsTheWorkRunAgain() throws Throwable {
        IdempotentCall call = call("fb-3", IdempotencyConfig.ofDefaults());
        executor.execute(call, () -> {
            // what the JDBC store records when an attempt's transaction commits with the key
            TraceContextHolder.current().idempotentExecution().recordCommit(TraceContextHolder.current());
            return fellBack();
        });
        assertThat(store.find(call.storedKey()).status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThatThrownBy(() -> executor.execute(call, () -> "never")).isInstanceOf(IdempotencyException.class);
        assertThat(runs).hasValue(1);
    }

    @Test
    void theSettingIsValidated() {
        assertThatThrownBy(() -> IdempotencyConfig.custom().onFallbackAnswer(FallbackAnswerHandling.DEFAULT))
                .isInstanceOf(io.github.resiliencestarter.core.InvalidSettingException.class);
        assertThat(IdempotencyConfig.ofDefaults().onFallbackAnswer()).isEqualTo(FallbackAnswerHandling.RELEASE);
        assertThat(IdempotencyConfig.from(IdempotencyConfig.custom().onFallbackAnswer(FallbackAnswerHandling.STORE)
                .build()).build().onFallbackAnswer()).isEqualTo(FallbackAnswerHandling.STORE);
    }
}
