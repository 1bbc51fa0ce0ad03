package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.timeout.TimeoutGuard;
import org.jspecify.annotations.Nullable;

/**
 * The resolved {@code @Timeout} of one method: its guard (merged settings) and its fallback.
 *
 * @param name the operation name ({@code SimpleClassName.method})
 * @param guard the guard applying the merged settings
 * @param fallback the fallback, or {@code null}
 * @param kind how the method returns its result
 * @param sharesSettings whether the method carries another tunable annotation, so a call reads
 *     all of them from one generation of settings
 */
public record TimeoutOperation(String name, TimeoutGuard guard, @Nullable FallbackMethod fallback, ResultKind kind,
        boolean sharesSettings) {
}
