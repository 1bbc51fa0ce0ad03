package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * The stored record of a key cannot be read (a status, time or response that no writer of this
 * starter produces): it was damaged or written by something else. The method is not executed
 * (HTTP 409), and the outcome is counted as {@link IdempotencyOutcome#CORRUPTED}.
 */
public class IdempotencyRecordCorruptedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param what what is wrong (never the stored content)
     * @param cause the parsing error, or {@code null}
     */
    public IdempotencyRecordCorruptedException(String what, @Nullable Throwable cause) {
        super("IDEMPOTENCY_RECORD_CORRUPTED", "The stored idempotency record is unreadable: " + what, cause);
    }
}
