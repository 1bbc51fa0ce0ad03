package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.core.InterruptMask;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.FaultProxy;
import io.github.resiliencestarter.testsupport.RealServers;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Interrupts and the settlement of a claim, on the real Lettuce client behind the project's fault
 * proxy: Lettuce gives up on a command when its thread is interrupted, whether the flag was set
 * before the command or arrives while it waits for the reply. The starter's own interrupts (a
 * timeout's) are held until the command has answered; anyone else's reaches Lettuce, and the
 * settlement makes the command again.
 */
class InterruptedWorkReleaseTest {

    /** Long enough for the test to see the command waiting for its reply. */
    private static final Duration SLOW_REPLY = Duration.ofMillis(400);

    private FaultProxy proxy;

    private LettuceConnectionFactory factory;

    private RedisIdempotencyStore store;

    private IdempotentExecutor executor;

    @BeforeEach
    void redisThroughTheProxy() throws Exception {
        URI server = URI.create(RealServers.redisUrl());
        proxy = FaultProxy.to(server.getHost(), server.getPort());
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", proxy.port()),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
        factory.afterPropertiesSet();
        factory.start();
        store = new RedisIdempotencyStore(factory);
        executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec()).build();
    }

    @AfterEach
    void close() {
        factory.destroy();
        proxy.close();
    }

    private static IdempotentCall call(String name) {
        return IdempotentCall.builder("Orders.create", IdempotencyConfig.ofDefaults())
                .key(name + "-" + UUID.randomUUID()).returnType(String.class).build();
    }

    @Test
    void anInterruptedExecutionReleasesItsClaimAtOnceAndKeepsTheInterruptFlag() {
        IdempotentCall call = call("interrupted");

        assertThatThrownBy(() -> executor.execute(call, () -> {
            Thread.currentThread().interrupt(); // what cancel(true) of an OFFLOAD timeout does to the worker
            throw new IllegalStateException("stopped by the timeout");
        })).isInstanceOf(IllegalStateException.class);

        boolean flagKept = Thread.interrupted();
        assertThat(flagKept).isTrue();
        // released by the first try, on the calling thread: no retry in the background was needed
        assertThat(store.find(call.storedKey())).isNull();
    }

    @Test
    void workThatReturnsAsTheTimeoutInterruptsItStillRecordsItsCompletionAndKeepsTheFlag() throws Throwable {
        IdempotentCall call = call("late-interrupt");

        // found under load: the interrupt came after the work returned, the completion's command
        // failed, and duplicates waited out the lease of work that was done
        String value = executor.execute(call, () -> {
            Thread.currentThread().interrupt();
            return "order-1";
        }).value();

        boolean flagKept = Thread.interrupted();
        assertThat(value).isEqualTo("order-1");
        assertThat(flagKept).isTrue();
        assertThat(store.find(call.storedKey()).status()).isEqualTo(IdempotencyStatus.COMPLETED);
    }

    @Test
    void aTimeoutsInterruptLandingWhileTheCompletionWaitsForRedisIsHeldUntilRedisAnswers() throws Exception {
        IdempotentCall call = call("mid-command");
        AtomicReference<Thread> worker = new AtomicReference<>();
        CompletableFuture<Boolean> flagAfterwards = new CompletableFuture<>();
        CompletableFuture<String> answered = CompletableFuture.supplyAsync(() -> {
            worker.set(Thread.currentThread());
            try {
                return executor.execute(call, () -> {
                    proxy.latency(SLOW_REPLY); // from the completion on, Redis answers slowly
                    return "order-1";
                }).value();
            } catch (Throwable failure) {
                throw new IllegalStateException(failure);
            } finally {
                flagAfterwards.complete(Thread.interrupted());
            }
        }, runnable -> new Thread(runnable, "offloaded-work").start());

        Thread thread = awaitWaitingInsideTheStore(worker);
        // the timeout's timer fires now, while the completion is on the wire
        assertThat(InterruptMask.interrupt(thread)).as("held for the end of the command").isTrue();

        assertThat(answered.get(10, TimeUnit.SECONDS)).isEqualTo("order-1");
        assertThat(flagAfterwards.get(10, TimeUnit.SECONDS)).as("delivered once the command answered").isTrue();
        proxy.latency(Duration.ZERO);
        // written by the one command the interrupt landed in, not by a retry after it
        assertThat(store.find(call.storedKey()).status()).isEqualTo(IdempotencyStatus.COMPLETED);
    }

    @Test
    void anotherCodesInterruptWhileTheCompletionWaitsFailsTheCommandYetTheKeyNeverExecutesAgain() throws Throwable {
        IdempotentCall call = call("foreign-interrupt");
        AtomicReference<Thread> worker = new AtomicReference<>();
        CompletableFuture<String> answered = CompletableFuture.supplyAsync(() -> {
            worker.set(Thread.currentThread());
            try {
                return executor.execute(call, () -> {
                    proxy.latency(SLOW_REPLY);
                    return "order-1";
                }).value();
            } catch (Throwable failure) {
                throw new IllegalStateException(failure);
            } finally {
                Thread.interrupted();
            }
        }, runnable -> new Thread(runnable, "interrupted-by-others").start());

        awaitWaitingInsideTheStore(worker).interrupt();

        // the caller is answered after the first try; a failed completion is never turned into a release
        assertThat(answered.get(10, TimeUnit.SECONDS)).isEqualTo("order-1");
        proxy.latency(Duration.ZERO);
        Eventually.waitUntil("the settlement completed the record", () -> {
            IdempotencyRecord record = store.find(call.storedKey());
            return record != null && record.status() == IdempotencyStatus.COMPLETED;
        });
        IdempotentResult<String> duplicate = executor.execute(call, () -> "executed again");
        assertThat(duplicate.replayed()).isTrue();
        assertThat(duplicate.value()).isEqualTo("order-1");
    }

    /** The worker once it waits for a Redis reply inside the store: its command is in flight. */
    private static Thread awaitWaitingInsideTheStore(AtomicReference<Thread> worker) {
        Eventually.waitUntil("the completion waits for Redis's reply", () -> {
            Thread thread = worker.get();
            return thread != null && thread.getState() == Thread.State.TIMED_WAITING
                    && Arrays.stream(thread.getStackTrace()).anyMatch(frame -> frame.getClassName()
                            .equals(RedisIdempotencyStore.class.getName()) && frame.getMethodName().equals("complete"));
        });
        return worker.get();
    }
}
