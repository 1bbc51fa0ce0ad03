package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.timeout.ReadTimeoutException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One attempt ran past its own limit ({@code attemptTimeout}) while the request's deadline still
 * had time. Like a read timeout, another attempt may succeed, so it is retryable by default.
 */
public class AttemptTimeoutException extends ReadTimeoutException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operation the operation
     * @param attempt the attempt that timed out
     * @param limit the attempt limit
     * @param cause what the attempt threw when interrupted, or {@code null}
     */
    public AttemptTimeoutException(String operation, int attempt, Duration limit, @Nullable Throwable cause) {
        super(operation + " attempt " + attempt + " did not complete within " + limit.toMillis() + " ms", cause);
    }
}
