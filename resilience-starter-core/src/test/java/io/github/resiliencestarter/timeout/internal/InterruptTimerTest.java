package io.github.resiliencestarter.timeout.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.testsupport.Eventually;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lock-free timer behind INTERRUPT: delivery on time, no leaked flag, bounded memory. */
class InterruptTimerTest {

    private final InterruptTimer timer = new InterruptTimer("interrupt-timer-test");

    @AfterEach
    void close() {
        timer.close();
    }

    @Test
    void aShortDeadlineArmedWhileTheTimerSleepsTowardsALongOneIsStillMet() throws InterruptedException {
        InterruptTimer.Ticket far = timer.arm(Thread.currentThread(), TimeUnit.SECONDS.toNanos(30));
        Thread.sleep(50); // the timer has taken the far ticket in and sleeps towards it (or its next intake)
        long started = System.nanoTime();
        InterruptTimer.Ticket near = timer.arm(Thread.currentThread(), TimeUnit.MILLISECONDS.toNanos(100));
        boolean interrupted = false;
        try {
            new CountDownLatch(1).await(20, TimeUnit.SECONDS);
        } catch (InterruptedException expected) {
            interrupted = true;
        }
        long waited = System.nanoTime() - started;
        assertThat(interrupted).isTrue();
        assertThat(waited).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(waited).isLessThan(TimeUnit.SECONDS.toNanos(10));
        assertThat(near.disarm()).isFalse();
        assertThat(far.disarm()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aDisarmedTicketNeverInterruptsAndLeavesNoFlag() throws InterruptedException {
        InterruptTimer.Ticket ticket = timer.arm(Thread.currentThread(), TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(ticket.disarm()).isTrue();
        Thread.sleep(300);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void ticketsDisarmedAtOnceNeverPileUpInTheTimer() {
        for (int i = 0; i < 1_000_000; i++) {
            timer.arm(Thread.currentThread(), TimeUnit.SECONDS.toNanos(60)).disarm();
        }
        // taken in and dropped at each intake: a million 60 s tickets would otherwise be held for a minute
        Eventually.waitUntil("the timer holds fewer than 10 000 tickets", () -> timer.held() < 10_000);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void manyThreadsArmingAtOnceAreEachInterruptedAtTheirOwnDeadline() throws InterruptedException {
        int threads = 8;
        CountDownLatch done = new CountDownLatch(threads);
        boolean[] interrupted = new boolean[threads];
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                InterruptTimer.Ticket ticket = timer.arm(Thread.currentThread(), TimeUnit.MILLISECONDS.toNanos(
                        20 + 10 * index));
                try {
                    new CountDownLatch(1).await(20, TimeUnit.SECONDS);
                } catch (InterruptedException expected) {
                    interrupted[index] = !ticket.disarm() && !Thread.currentThread().isInterrupted();
                }
                done.countDown();
            });
            thread.start();
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted).containsOnly(true);
    }
}
