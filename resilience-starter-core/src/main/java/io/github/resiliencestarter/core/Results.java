package io.github.resiliencestarter.core;

import org.jspecify.annotations.Nullable;

/**
 * The one place the null checker is told what it cannot see: a value the engine holds in a
 * nullable variable (it is {@code null} until an attempt returns) is, once that attempt returned,
 * the work's result, of the work's own type, which admits {@code null} exactly when the caller's
 * type does.
 */
public final class Results {

    private Results() {
    }

    /**
     * The value as the work's result.
     *
     * @param value what the work returned
     * @param <T> the work's result type
     * @return {@code value}, unchanged
     */
    @SuppressWarnings("NullAway") // the documented suppression: docs/internals/testing.md#null-safety
    public static <T extends @Nullable Object> T returned(@Nullable T value) {
        return value;
    }
}
