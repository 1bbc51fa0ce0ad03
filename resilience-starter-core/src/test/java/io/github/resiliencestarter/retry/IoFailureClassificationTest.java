package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import org.junit.jupiter.api.Test;

/**
 * For an operation declared idempotent any I/O failure is transient; for others an I/O failure of
 * unknown kind is not retried (the request may have reached the other side).
 */
class IoFailureClassificationTest {

    private final RetryClassifier declaredIdempotent = RetryClassifier.builder().ioFailuresTransient(true).build();

    @Test
    void byDefaultAnIoFailureOfUnknownKindIsNotRetried() {
        assertThat(RetryClassifier.ofDefaults().isRetryable(new IOException("stream closed"))).isFalse();
        assertThat(RetryClassifier.ofDefaults().isRetryable(new IllegalStateException("wrapped",
                new UncheckedIOException(new IOException("unexpected end of stream"))))).isFalse();
    }

    @Test
    void forADeclaredIdempotentOperationEveryIoFailureIsTransientWhereverItIsInTheChain() {
        assertThat(declaredIdempotent.isRetryable(new IOException("stream closed"))).isTrue();
        assertThat(declaredIdempotent.isRetryable(new SocketException("Connection reset"))).isTrue();
        assertThat(declaredIdempotent.isRetryable(new SocketException("Broken pipe"))).isTrue();
        assertThat(declaredIdempotent.isRetryable(new IllegalStateException("wrapped",
                new UncheckedIOException(new EOFException())))).isTrue();
    }

    @Test
    void itDoesNotMakeOtherFailuresTransient() {
        assertThat(declaredIdempotent.isRetryable(new IllegalArgumentException("bad input"))).isFalse();
        assertThat(declaredIdempotent.isRetryable(new NonRetryableException("CONFLICT", "a conflict",
                new IOException("and an I/O failure under it")))).isFalse();
    }

    @Test
    void theSettingSurvivesToBuilder() {
        assertThat(declaredIdempotent.toBuilder().build().isRetryable(new IOException("x"))).isTrue();
        assertThat(declaredIdempotent.toBuilder().ioFailuresTransient(false).build()
                .isRetryable(new IOException("x"))).isFalse();
    }
}
