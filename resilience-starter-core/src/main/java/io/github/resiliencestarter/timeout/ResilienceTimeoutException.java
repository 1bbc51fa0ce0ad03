package io.github.resiliencestarter.timeout;

import io.github.resiliencestarter.core.ResilienceException;
import org.jspecify.annotations.Nullable;

/** Root of the timeout exceptions; {@link #kind()} says which of the three kinds fired. */
public abstract class ResilienceTimeoutException extends ResilienceException {

    private static final long serialVersionUID = 1L;

    protected ResilienceTimeoutException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * Which timeout fired.
     *
     * @return the kind
     */
    public abstract TimeoutKind kind();
}
