package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutGuard;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A store slower than the deadline: the call ends in a deadline error at the deadline, not a hang. */
class SlowStoreTest {

    /** A store whose claims take two seconds. */
    static final class SlowStore extends InMemoryIdempotencyStore {

        @Override
        public ClaimResult claim(Claim claim) {
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IdempotencyStoreException("interrupted", ex);
            }
            return super.claim(claim);
        }
    }

    @Test
    void aSlowStoreEndsInADeadlineErrorNotAHang() {
        IdempotentExecutor executor = IdempotentExecutor.builder(new SlowStore(), new Fastjson2ResponseCodec()).build();
        AtomicInteger executions = new AtomicInteger();
        try (TimeoutRuntime runtime = TimeoutRuntime.ofDefaults()) {
            TimeoutGuard guard = TimeoutGuard.of("Orders.create", TimeoutConfig.custom()
                    .timeout(Duration.ofMillis(300)).build(), runtime);
            long start = System.nanoTime();
            assertThatThrownBy(() -> guard.call(() -> executor.execute(new IdempotentCall("Orders.create", "k", "fp",
                    String.class, IdempotencyConfig.ofDefaults()), () -> "ran-" + executions.incrementAndGet())))
                    .isInstanceOf(DeadlineExceededException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
        }
        assertThat(executions.get()).isZero();
    }
}
