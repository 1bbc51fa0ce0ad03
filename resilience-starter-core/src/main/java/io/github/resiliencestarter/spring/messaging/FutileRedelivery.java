package io.github.resiliencestarter.spring.messaging;

import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.idempotent.IdempotentReplayException;
import io.github.resiliencestarter.retry.RetrySummary;
import org.jspecify.annotations.Nullable;

/**
 * Which listener failures no redelivery can change, so the broker adapters hand them to the
 * dead-letter path at once instead of redelivering them in a loop: a failure that already went
 * through {@code @Retry} (exhausted or refused), a delivery whose key's first execution took
 * effect but whose answer cannot be replayed, and a delivery whose key another payload completed:
 * every redelivery meets the same record.
 */
public final class FutileRedelivery {

    private FutileRedelivery() {
    }

    /**
     * Why redelivering a failed message would not help.
     *
     * @param failure the listener's failure
     * @return the reason, or {@code null} when a redelivery may succeed
     */
    public static @Nullable String reason(@Nullable Throwable failure) {
        if (RetrySummary.inCauses(failure) != null) {
            return "retries spent";
        }
        return Causes.firstAnswer(failure, cause -> {
            if (cause instanceof IdempotentReplayException) {
                return "the first delivery took effect and its outcome cannot be replayed";
            }
            return cause instanceof IdempotencyKeyReusedException ? "its key was used by another payload" : null;
        });
    }
}
