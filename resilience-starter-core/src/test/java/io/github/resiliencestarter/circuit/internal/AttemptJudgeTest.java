package io.github.resiliencestarter.circuit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.circuit.internal.AttemptJudge.Verdict;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.testsupport.ManualTime;
import java.net.ConnectException;
import java.time.Duration;
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

        assertThat(AttemptJudge.judge(CONFIG, failure, SLOW, expired(false))).isEqualTo(Verdict.FAILURE);
        assertThat(AttemptJudge.judge(CONFIG, failure, SLOW - 1, expired(false))).isEqualTo(Verdict.IGNORED);
        assertThat(AttemptJudge.judge(CONFIG, failure, 0, expired(true))).as("its own timeout missed")
                .isEqualTo(Verdict.FAILURE);
    }

    @Test
    void R6_withTimeLeftATransientFailureCountsAndAnAnswerIsASuccess() {
        assertThat(AttemptJudge.judge(CONFIG, new ConnectException("refused"), 0, null)).isEqualTo(Verdict.FAILURE);
        assertThat(AttemptJudge.judge(CONFIG, null, SLOW * 10, null)).isEqualTo(Verdict.SUCCESS);
        assertThat(AttemptJudge.judge(CONFIG, new IllegalArgumentException("bad id"), 0, null))
                .as("a client error is an answer: the downstream is up").isEqualTo(Verdict.SUCCESS);
    }
}
