package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.retry.Retrier;
import org.jspecify.annotations.Nullable;

/**
 * The resolved {@code @Retry} of one method: its retrier (merged policy, shared budget) and its
 * fallback.
 *
 * @param name the operation name ({@code SimpleClassName.method})
 * @param retrier the retrier
 * @param fallback the fallback, or {@code null}
 * @param declaredIdempotent whether the method passed the safety gate only by
 *     {@code @Retry(idempotent = true)}
 * @param kind how the method returns its result
 * @param sharesSettings whether the method carries another tunable annotation, so a call reads
 *     all of them from one generation of settings
 */
public record RetryOperation(String name, Retrier retrier, @Nullable FallbackMethod fallback,
        boolean declaredIdempotent, ResultKind kind, boolean sharesSettings) {
}
