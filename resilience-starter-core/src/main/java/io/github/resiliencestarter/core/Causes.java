package io.github.resiliencestarter.core;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The one walk of a cause chain: a failure and its causes, nearest first, at most
 * {@value #MAX_DEPTH} deep so a cyclic or absurdly long chain cannot loop. Retry classification,
 * {@code Retry-After} lookup and timeout recognition all read failures through it.
 */
public final class Causes {

    /** How many throwables of a chain are looked at, the failure itself included. */
    public static final int MAX_DEPTH = 16;

    private Causes() {
    }

    /**
     * The first answer {@code probe} gives along the chain.
     *
     * @param error the failure, possibly {@code null}
     * @param probe asked about each throwable on its own (not its causes); {@code null} means "no
     *     answer here, look further"
     * @param <R> the answer type
     * @return the first non-null answer, or {@code null}
     */
    public static <R> @Nullable R firstAnswer(@Nullable Throwable error, Function<Throwable, @Nullable R> probe) {
        Throwable current = error;
        for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
            R answer = probe.apply(current);
            if (answer != null) {
                return answer;
            }
            current = current.getCause();
        }
        return null;
    }

    /**
     * The failure of an asynchronous stage without the {@code CompletionException} or
     * {@code ExecutionException} wrapper the JDK adds in dependent stages and {@code get()}.
     *
     * @param failure what a stage or {@code get()} reported
     * @return the failure of the work itself
     */
    public static Throwable unwrapAsync(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof java.util.concurrent.CompletionException
                || current instanceof java.util.concurrent.ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
