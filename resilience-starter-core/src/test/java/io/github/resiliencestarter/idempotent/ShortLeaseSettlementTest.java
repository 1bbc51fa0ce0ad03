package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.ForwardingIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.testsupport.Eventually;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A claim whose lease was sized to little time left and no margin (issue 45, item 8): while its
 * completion is retried, the lease is kept all the same, so no duplicate takes the key over and
 * runs the work again.
 */
class ShortLeaseSettlementTest {

    @Test
    void aSettlementRetriedAfterAShortLeaseKeepsTheKeyUntilItLands() throws Throwable {
        InMemoryIdempotencyStore records = new InMemoryIdempotencyStore();
        AtomicBoolean storeDown = new AtomicBoolean(true);
        IdempotencyStore store = new ForwardingIdempotencyStore(records) {
            @Override
            public boolean complete(Completion completion) {
                if (storeDown.get()) {
                    throw new IdempotencyStoreException("the store is away", null);
                }
                return super.complete(completion);
            }
        };
        IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec()).build();
        IdempotencyConfig config = IdempotencyConfig.custom().leaseMargin(Duration.ZERO)
                .settleLimit(Duration.ofSeconds(20)).build();
        IdempotentCall call = IdempotentCall.builder("Orders.create", config).key("short-lease")
                .returnType(String.class).build();

        long answeredAt;
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(150))))) {
            assertThat(executor.execute(call, () -> "done").value()).isEqualTo("done");
            answeredAt = System.currentTimeMillis();
        }

        // well past the 150 ms lease the claim was made with, it is still held while the completion is retried
        long until = answeredAt + 1_500;
        while (System.currentTimeMillis() < until) {
            IdempotencyRecord held = records.find(call.storedKey());
            assertThat(held).isNotNull();
            assertThat(held.isLeaseExpired(System.currentTimeMillis())).as("the lease kept").isFalse();
            Thread.sleep(20);
        }
        storeDown.set(false);
        Eventually.waitUntil("the retried completion lands", () -> {
            IdempotencyRecord record = records.find(call.storedKey());
            return record != null && record.status() == IdempotencyStatus.COMPLETED;
        });
    }
}
