package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Work stopped by a timeout's interrupt still releases its claim on a real Redis, so the client's
 * retry runs at once instead of waiting out the lease, and work the interrupt reaches just after it
 * returned still records its completion (both found under load: "Redis command interrupted" left
 * the key held).
 */
class InterruptedWorkReleaseTest {

    private final IdempotencyStore redis = StoreFixtures.redisStore();

    /**
     * The real Redis store behind a client whose waits are interruptible, as Lettuce's are: a
     * command sent while the thread's interrupt flag is set fails instead of waiting for the reply.
     */
    private final IdempotencyStore store = new IdempotencyStore() {
        @Override
        public ClaimResult claim(Claim claim) {
            return redis.claim(claim);
        }

        @Override
        public boolean complete(Completion completion) {
            failIfInterrupted();
            return redis.complete(completion);
        }

        @Override
        public boolean release(String key, String ownerToken) {
            failIfInterrupted();
            return redis.release(key, ownerToken);
        }

        @Override
        public boolean extendLease(String key, String ownerToken, long leaseMillis) {
            return redis.extendLease(key, ownerToken, leaseMillis);
        }

        @Override
        public IdempotencyRecord find(String key) {
            return redis.find(key);
        }

        @Override
        public void ping() {
            redis.ping();
        }

        private void failIfInterrupted() {
            if (Thread.currentThread().isInterrupted()) {
                throw new IdempotencyStoreException("Redis command interrupted", null);
            }
        }
    };

    @Test
    void anInterruptedExecutionReleasesItsClaimAndKeepsTheInterruptFlag() {
        IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec()).build();
        IdempotentCall call = IdempotentCall.builder("Orders.create", IdempotencyConfig.ofDefaults())
                .key("interrupted-" + UUID.randomUUID()).returnType(String.class).build();

        assertThatThrownBy(() -> executor.execute(call, () -> {
            Thread.currentThread().interrupt(); // what cancel(true) of an OFFLOAD timeout does to the worker
            throw new IllegalStateException("stopped by the timeout");
        })).isInstanceOf(IllegalStateException.class);

        boolean flagKept = Thread.interrupted();
        assertThat(flagKept).isTrue();
        assertThat(redis.find(call.storedKey())).isNull();
    }

    @Test
    void workThatReturnsAsTheTimeoutInterruptsItStillRecordsItsCompletionAndKeepsTheFlag() throws Throwable {
        IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec()).build();
        IdempotentCall call = IdempotentCall.builder("Orders.create", IdempotencyConfig.ofDefaults())
                .key("late-interrupt-" + UUID.randomUUID()).returnType(String.class).build();

        // found under load: the interrupt came after the work returned, the completion's command
        // failed, and duplicates waited out the lease of work that was done
        String value = executor.execute(call, () -> {
            Thread.currentThread().interrupt();
            return "order-1";
        }).value();

        boolean flagKept = Thread.interrupted();
        assertThat(value).isEqualTo("order-1");
        assertThat(flagKept).isTrue();
        IdempotencyRecord record = redis.find(call.storedKey());
        assertThat(record).isNotNull();
        assertThat(record.status()).isEqualTo(IdempotencyStatus.COMPLETED);
    }
}
