package io.github.resiliencestarter.timeout.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.testsupport.Eventually;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The OFFLOAD pool on its direct hand-off, on real threads. */
class TimeoutExecutorsTest {

    private static final int BURST = 16;

    @Test
    void aBurstsThreadsRetireAfterTheirKeepAliveUnderATrickle() throws Exception {
        // keep-alive 1 s; the trickle brings a task every 20 ms: handed round the burst's 16 threads
        // in turn, each would take one every 320 ms and never idle for its keep-alive
        ThreadPoolExecutor pool = TimeoutExecutors.newBoundedExecutor("burst-", 1, 64, 0, Duration.ofSeconds(1));
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        try {
            CountDownLatch started = new CountDownLatch(BURST);
            CountDownLatch released = new CountDownLatch(1);
            for (int i = 0; i < BURST; i++) {
                pool.execute(() -> {
                    started.countDown();
                    try {
                        released.await(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            assertThat(started.await(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(pool.getPoolSize()).as("the burst's threads").isEqualTo(BURST);
            released.countDown();

            trickle.scheduleAtFixedRate(() -> pool.execute(() -> { }), 0, 20, TimeUnit.MILLISECONDS);

            Eventually.waitUntil("the burst's threads retired under the trickle", () -> pool.getPoolSize() <= 2);
            assertThat(pool.getCompletedTaskCount()).as("the trickle kept running").isGreaterThan(BURST);
        } finally {
            trickle.shutdownNow();
            pool.shutdownNow();
        }
    }
}
