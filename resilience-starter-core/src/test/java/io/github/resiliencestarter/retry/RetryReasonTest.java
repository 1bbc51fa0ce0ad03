package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.spring.retry.SpringRetryRules;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;

/** The retry summary (and the WARN line built from the same text) names the rule that decided. */
class RetryReasonTest {

    private static RetryConfig.Builder fixed() {
        return RetryConfig.custom().backOff(new FixedBackOff(Duration.ZERO)).jitter(Jitters.none());
    }

    private static String reasonFor(RetryConfig config, Throwable failure) {
        try {
            Retrier.of("Orders.create", config).call(() -> {
                throw failure;
            });
        } catch (Throwable error) {
            RetrySummary summary = RetrySummary.of(error);
            assertThat(summary).as("summary of %s", failure).isNotNull();
            return summary.getMessage();
        }
        throw new AssertionError("the call did not fail");
    }

    @Test
    void RP5_aClientErrorIsNotRetriedAndTheSummarySaysWhichRuleDecided() {
        assertThat(reasonFor(fixed().build(), new IllegalArgumentException("bad quantity"))).isEqualTo(
                "Orders.create: 1 attempt, not retried: IllegalArgumentException is a client error (rule R-P5)");
    }

    @Test
    void eachStopNamesItsRule() {
        assertThat(reasonFor(fixed().build(), new IllegalStateException("unknown")))
                .endsWith("not retried: IllegalStateException is not known to be transient, and unknown failures "
                        + "are not retried (rule R-2)");
        assertThat(reasonFor(fixed().build(), new RuntimeException(new DeadlineExceededException("Orders.create",
                DeadlineExceededException.Reason.BUDGET_SPENT, Duration.ofSeconds(1), null)))).contains("the caller's deadline is spent (rule C-1)");
        assertThat(reasonFor(fixed().classifier(RetryClassifier.builder()
                .noRetryFor(List.of(SocketTimeoutException.class)).build()).build(), new SocketTimeoutException()))
                .endsWith("not retried: SocketTimeoutException is listed in no-retry-for");
        assertThat(reasonFor(fixed().onlyUnsentFailures(true).build(), new SocketTimeoutException("read")))
                .endsWith("not retried: SocketTimeoutException may have reached the other side, and the operation "
                        + "is not declared idempotent (rule R-1)");
        assertThat(reasonFor(fixed().maxAttempts(2).build(), new SocketTimeoutException("read")))
                .isEqualTo("Orders.create: 2 attempts, attempts exhausted (rule R-3)");
    }

    @Test
    void anHttpClientErrorNamesItsStatusAndRule() {
        RetryConfig withSpringRules = fixed().classifier(RetryClassifier.builder()
                .rule(new SpringRetryRules(TimeSource.SYSTEM)).build()).build();
        assertThat(reasonFor(withSpringRules, HttpClientErrorException.create(HttpStatus.NOT_FOUND, "Not Found",
                HttpHeaders.EMPTY, new byte[0], null))).endsWith(
                        "not retried: NotFound (HTTP 404) is a client error (rule R-P5)");
    }
}
