package io.github.resiliencestarter.idempotent;

/** What a duplicate does while the first request with its key is still running. */
public enum InProgressStrategy {

    /** Not set here: taken from the configuration. */
    DEFAULT,

    /**
     * Wait for the first to finish and replay its result, bounded by the caller's deadline and the
     * wait limit; then answer 409. The default.
     */
    WAIT,

    /** Answer 409 with {@code Retry-After} at once. */
    REJECT
}
