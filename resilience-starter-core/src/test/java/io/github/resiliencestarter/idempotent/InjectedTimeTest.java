package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The executor reads time only from its {@link TimeSource}, so tests can move time instead of waiting. */
class InjectedTimeTest {

    /** Monotonic time that jumps ten seconds each time it is read. */
    private static final class Leaping implements TimeSource {

        private final AtomicLong nanos = new AtomicLong();

        @Override
        public long nanoTime() {
            return nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        }

        @Override
        public long epochMillis() {
            return System.currentTimeMillis();
        }
    }

    @Test
    void aWaitingDuplicateGivesUpWhenTheInjectedClockSaysTheWaitIsOver() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();
        IdempotencyConfig config = IdempotencyConfig.custom().waitTimeout(Duration.ofSeconds(30))
                .onInProgress(InProgressStrategy.WAIT).build();
        IdempotentCall call = IdempotentCall.builder("Orders.create", config).key("k-1").returnType(String.class)
                .build();
        store.claim(new Claim(call.storedKey(), call.operation(), call.fingerprint(), "someone-else", 60_000, 60_000));
        IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec())
                .timeSource(new Leaping()).build();

        long started = System.nanoTime();
        assertThatThrownBy(() -> executor.execute(call, () -> "never"))
                .isInstanceOf(IdempotencyInProgressException.class);

        // thirty seconds of waiting on the system clock; a few polls on the leaping one
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }
}
