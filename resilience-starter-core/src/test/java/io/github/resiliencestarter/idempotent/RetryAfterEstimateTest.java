package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code Retry-After} of a 409 in-progress: the operation's typical duration, not the first call's
 * whole lease; the lease only without history; always between 1 s and the lease.
 */
class RetryAfterEstimateTest {

    /** A monotonic clock that moves only when told, next to the real wall clock. */
    private static final class Manual implements TimeSource {

        private final AtomicLong nanos = new AtomicLong();

        void advance(Duration by) {
            nanos.addAndGet(by.toNanos());
        }

        @Override
        public long nanoTime() {
            return nanos.get();
        }

        @Override
        public long epochMillis() {
            return System.currentTimeMillis();
        }
    }

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

    private final Manual clock = new Manual();

    private final IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec())
            .timeSource(clock).build();

    private final IdempotencyConfig reject = IdempotencyConfig.custom().onInProgress(InProgressStrategy.REJECT)
            .build();

    private long retryAfterOfADuplicateOf(String key) {
        IdempotentCall call = IdempotentCall.builder("Orders.create", reject).key(key).returnType(String.class).build();
        // another node holds the key with a 30 s lease
        store.claim(new Claim(call.storedKey(), call.operation(), call.fingerprint(), "another-node", 30_000, 60_000));
        return catchThrowableOfType(() -> executor.execute(call, () -> "never"),
                IdempotencyInProgressException.class).retryAfterSeconds();
    }

    private void executeTaking(String key, Duration took) throws Throwable {
        IdempotentCall call = IdempotentCall.builder("Orders.create", reject).key(key).returnType(String.class).build();
        executor.execute(call, () -> {
            clock.advance(took);
            return "done";
        });
    }

    @Test
    void withoutHistoryADuplicateIsToldTheRemainingLease() {
        assertThat(retryAfterOfADuplicateOf("no-history")).isBetween(29L, 30L);
    }

    @Test
    void withHistoryADuplicateIsToldTheTypicalDuration() throws Throwable {
        executeTaking("done-1", Duration.ofMillis(1_200));
        executeTaking("done-2", Duration.ofMillis(1_200));

        assertThat(retryAfterOfADuplicateOf("in-progress")).isEqualTo(2);
    }

    @Test
    void aFastOperationStillSaysAtLeastOneSecond() throws Throwable {
        executeTaking("fast", Duration.ofMillis(15));

        assertThat(retryAfterOfADuplicateOf("in-progress-fast")).isEqualTo(1);
    }

    @Test
    void aSlowOperationIsNeverToldToWaitPastTheLease() throws Throwable {
        executeTaking("slow", Duration.ofMinutes(5));

        assertThat(retryAfterOfADuplicateOf("in-progress-slow")).isBetween(29L, 30L);
    }
}
