package io.github.resiliencestarter.idempotent;

/**
 * A result its producer could not hold whole, such as a streamed answer longer than the response
 * limit that went to the client as it came. It is recorded as oversize without being encoded: a
 * duplicate is refused, and the work never runs again.
 */
public interface OversizedResult {

    /**
     * Whether this result passed the limit.
     *
     * @return {@code true} when it was not held whole
     */
    boolean oversized();
}
