package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An asynchronous duplicate that waits polls the store on scheduled tasks. When the first owner
 * gives the key up, the duplicate's own work starts on such a poll: it must run with its caller's
 * thread-bound state (a tracer's span, a security context), as the propagators carry it, not with
 * whatever the poll's thread holds.
 */
class AsyncWaitContextTest {

    private static final ThreadLocal<String> CALLER = new ThreadLocal<>();

    private final ContextPropagator callerState = () -> {
        String captured = CALLER.get();
        return () -> {
            String before = CALLER.get();
            CALLER.set(captured);
            return () -> CALLER.set(before);
        };
    };

    private final IdempotentExecutor executor = IdempotentExecutor.builder(new InMemoryIdempotencyStore(),
            new Fastjson2ResponseCodec()).contextPropagator(callerState).build();

    private IdempotentCall call() {
        return IdempotentCall.builder("Orders.create", IdempotencyConfig.ofDefaults()).key("k-1").fingerprintOf("a")
                .returnType(String.class).build();
    }

    @Test
    void workStartedFromAWaitsPollRunsWithItsCallersState() throws Exception {
        CompletableFuture<String> firstWork = new CompletableFuture<>();
        CompletableFuture<IdempotentResult<String>> first = executor.executeAsync(call(), () -> firstWork, () -> { });
        AtomicReference<String> seenByDuplicate = new AtomicReference<>("not run");
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CompletableFuture<IdempotentResult<String>> duplicate;
        CALLER.set("the duplicate's caller");
        try {
            duplicate = executor.executeAsync(call(), () -> {
                seenByDuplicate.set(CALLER.get());
                ranOn.set(Thread.currentThread());
                return CompletableFuture.completedFuture("second");
            }, () -> { });
        } finally {
            CALLER.remove();
        }
        assertThat(duplicate).as("waiting while the first owner works").isNotDone();

        firstWork.completeExceptionally(new IllegalStateException("the first owner failed"));

        assertThat(duplicate.get(10, TimeUnit.SECONDS).value()).isEqualTo("second");
        assertThat(first).isCompletedExceptionally();
        assertThat(ranOn.get()).as("started on a poll").isNotEqualTo(Thread.currentThread());
        assertThat(seenByDuplicate).hasValue("the duplicate's caller");
    }
}
