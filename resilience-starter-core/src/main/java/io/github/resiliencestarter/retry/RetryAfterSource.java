package io.github.resiliencestarter.retry;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Reads a requested wait from a failure, for example an HTTP {@code Retry-After} header. The
 * {@link RetryClassifier} asks every source about each throwable of a failure's cause chain.
 */
@FunctionalInterface
public interface RetryAfterSource {

    /**
     * The requested wait carried by this single throwable.
     *
     * @param error the throwable (not its causes)
     * @return the wait, or {@code null}
     */
    @Nullable Duration retryAfter(Throwable error);
}
