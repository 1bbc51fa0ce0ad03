package io.github.resiliencestarter.circuit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.circuit.internal.AttemptJudge.Verdict;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

/**
 * What a call past a deadline tells the breaker (rules R-6, C-1): its own timeout missed is the
 * downstream's fault; a caller's budget run out counts only when the call had as long as a slow
 * call, to the nanosecond.
 */
class AttemptJudgeTest {

    private static final CircuitBreakerConfig CONFIG = CircuitBreakerConfig.custom()
            .slowCallDuration(Duration.ofMillis(500)).build();

    private static final long SLOW = Duration.ofMillis(500).toNanos();

    private final ManualTime time = new ManualTime(1_000_000L);

    private Deadline expired(boolean local) {
        Deadline deadline = local ? Deadline.localAfterNanos(1, time) : Deadline.afterNanos(1, time);
        time.advance(1);
        return deadline;
    }

    @Test
    void R6_aCallersBudgetRunOutCountsOnlyOnceTheCallHadAsLongAsASlowCall() {
        ConnectException failure = new ConnectException("refused");

        assertThat(AttemptJudge.judge(CONFIG, failure, SLOW, expired(false), false)).isEqualTo(Verdict.FAILURE);
        assertThat(AttemptJudge.judge(CONFIG, failure, SLOW - 1, expired(false), false)).isEqualTo(Verdict.IGNORED);
        assertThat(AttemptJudge.judge(CONFIG, failure, 0, expired(true), false)).as("its own timeout missed")
                .isEqualTo(Verdict.FAILURE);
    }

    @Test
    void R6_withTimeLeftATransientFailureCountsAndAnAnswerIsASuccess() {
        assertThat(AttemptJudge.judge(CONFIG, new ConnectException("refused"), 0, null, false))
                .isEqualTo(Verdict.FAILURE);
        assertThat(AttemptJudge.judge(CONFIG, null, SLOW * 10, null, false)).isEqualTo(Verdict.SUCCESS);
        assertThat(AttemptJudge.judge(CONFIG, new IllegalArgumentException("bad id"), 0, null, false))
                .as("a client error is an answer: the downstream is up").isEqualTo(Verdict.SUCCESS);
    }

    @Test
    void R6_aCallCutByItsOwnTimeoutCountsHoweverItWasStopped() {
        // an async call cut by @Timeout ends cancelled; a blocking one, interrupted
        assertThat(AttemptJudge.judge(CONFIG, new CancellationException(), 10, expired(true), false))
                .isEqualTo(Verdict.FAILURE);
        assertThat(AttemptJudge.judge(CONFIG, new InterruptedException(), 10, expired(true), true))
                .isEqualTo(Verdict.FAILURE);
        // a caller's budget still needs the fair chance, cancelled or not
        assertThat(AttemptJudge.judge(CONFIG, new CancellationException(), SLOW - 1, expired(false), false))
                .isEqualTo(Verdict.IGNORED);
        assertThat(AttemptJudge.judge(CONFIG, new CancellationException(), SLOW, expired(false), false))
                .isEqualTo(Verdict.FAILURE);
    }

    @Test
    void R6_aCallMarkedAsStoppedFromThisSideWithTimeLeftIsIgnoredHoweverTheClientReportsIt() {
        Deadline later = Deadline.localAfterNanos(SLOW * 100, time);
        // Spring's JDK client: an IOException caused by the interrupt, the flag raised again
        IOException wrapped = new IOException("Request was interrupted", new InterruptedException());
        for (Throwable reported : List.of(wrapped, new IOException("reset"), new InterruptedIOException("interrupted"),
                new ClosedByInterruptException(), new CancellationException())) {
            assertThat(AttemptJudge.judge(CONFIG, reported, 10, later, true)).as("%s, marked", reported)
                    .isEqualTo(Verdict.IGNORED);
            assertThat(AttemptJudge.judge(CONFIG, reported, 10, null, true)).as("%s, marked, no deadline", reported)
                    .isEqualTo(Verdict.IGNORED);
        }
    }

    @Test
    void R6_withoutAMarkTheFailureIsJudgedByWhatWasThrownNotByWhatCausedIt() {
        Deadline later = Deadline.localAfterNanos(SLOW * 100, time);
        // nobody here stopped it: an I/O failure is an I/O failure, whatever lies in its causes
        IOException wrapped = new IOException("Request was interrupted", new InterruptedException());
        assertThat(AttemptJudge.judge(CONFIG, wrapped, 10, later, false)).isEqualTo(Verdict.FAILURE);
        assertThat(AttemptJudge.judge(CONFIG, new ClosedByInterruptException(), 10, null, false))
                .isEqualTo(Verdict.FAILURE);
        assertThat(AttemptJudge.judge(CONFIG, new SocketTimeoutException("Read timed out"), 10, null, false))
                .isEqualTo(Verdict.FAILURE);
        // a bare cancel or interrupt carries no answer from the downstream: the application stopped it
        assertThat(AttemptJudge.judge(CONFIG, new CancellationException(), 10, later, false))
                .isEqualTo(Verdict.IGNORED);
        assertThat(AttemptJudge.judge(CONFIG, new InterruptedException(), 10, null, false))
                .isEqualTo(Verdict.IGNORED);
    }
}
