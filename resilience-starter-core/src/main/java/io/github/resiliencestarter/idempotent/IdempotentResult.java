package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * The result of an idempotent call.
 *
 * @param value the result (the first result, for a replay)
 * @param replayed whether it was replayed rather than executed now
 * @param <T> the result type
 */
public record IdempotentResult<T extends @Nullable Object>(T value, boolean replayed) {
}
