package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code no-retry-for} excludes what it lists anywhere in a cause chain, and nothing else (rule R-2). */
class RetryClassifierExclusionTest {

    static final class InsufficientBalanceException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        InsufficientBalanceException() {
            super("balance too low");
        }
    }

    @Test
    void R2_aListedTypeIsExcludedAnywhereInTheCauseChainAndAnUnlistedOneIsNot() {
        RetryClassifier classifier = RetryClassifier.builder()
                .noRetryFor(List.of(InsufficientBalanceException.class)).build();

        assertThat(classifier.isExcluded(new InsufficientBalanceException())).isTrue();
        assertThat(classifier.isExcluded(new IllegalStateException(new InsufficientBalanceException()))).isTrue();
        assertThat(classifier.isExcluded(new IOException("reset"))).isFalse();
        assertThat(classifier.isRetryable(new IllegalStateException(new InsufficientBalanceException()))).isFalse();
        assertThat(classifier.explain(new InsufficientBalanceException()))
                .isEqualTo("InsufficientBalanceException is listed in no-retry-for");
    }

    @Test
    void R2_withNothingListedNothingIsExcluded() {
        RetryClassifier classifier = RetryClassifier.ofDefaults();

        assertThat(classifier.isExcluded(new InsufficientBalanceException())).isFalse();
        assertThat(classifier.isExcluded(new ConnectException("refused"))).isFalse();
        assertThat(classifier.isRetryable(new ConnectException("refused"))).isTrue();
    }
}
