package io.github.resiliencestarter.autoconfigure.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.client.ResourceAccessException;

/**
 * Classification matches what the user declared: an operation declared idempotent
 * ({@code @Retry(idempotent = true)}, an idempotent HTTP method) retries any I/O failure; one that
 * passes the gate only for unsent requests does not retry an I/O failure of unknown kind.
 */
class DeclaredIntentClassificationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    RetryAutoConfiguration.class))
            .withPropertyValues("resilience.retry.delay=1ms", "resilience.retry.max-delay=2ms")
            .withBean(Calls.class);

    @Test
    void aDeclaredIdempotentOperationRetriesAnIoFailureOfUnknownKind() {
        runner.run(context -> {
            Calls calls = context.getBean(Calls.class);
            assertThat(calls.declaredIdempotent()).isEqualTo("third attempt");
            assertThat(calls.count().get()).isEqualTo(3);
        });
    }

    @Test
    void anIdempotentHttpMethodRetriesAResourceAccessExceptionWrappingAnIoFailure() {
        runner.run(context -> {
            Calls calls = context.getBean(Calls.class);
            assertThat(calls.httpGet()).isEqualTo("third attempt");
            assertThat(calls.count().get()).isEqualTo(3);
        });
    }

    @Test
    void anOperationSafeOnlyForUnsentRequestsDoesNotRetryAnIoFailureOfUnknownKind() {
        runner.run(context -> {
            Calls calls = context.getBean(Calls.class);
            assertThatThrownBy(calls::onlyUnsent).isInstanceOf(UncheckedIOException.class);
            assertThat(calls.count().get()).isEqualTo(1);
        });
    }

    static class Calls {

        private final AtomicInteger count = new AtomicInteger();

        public AtomicInteger count() {
            return count;
        }

        @Retry(maxAttempts = 3, idempotent = true)
        public String declaredIdempotent() {
            if (count.incrementAndGet() < 3) {
                throw new UncheckedIOException(new IOException("connection closed by the peer"));
            }
            return "third attempt";
        }

        @GetMapping("/stock")
        @Retry(maxAttempts = 3)
        public String httpGet() {
            if (count.incrementAndGet() < 3) {
                throw new ResourceAccessException("I/O error", new IOException("premature end of chunk"));
            }
            return "third attempt";
        }

        @Retry(maxAttempts = 3, retryFor = ConnectException.class)
        public String onlyUnsent() {
            count.incrementAndGet();
            throw new UncheckedIOException(new IOException("stream closed"));
        }
    }
}
