package io.github.resiliencestarter.idempotent;

/**
 * What a failure the client caused (a 4xx: not found, invalid, conflict) does to its key. The IETF
 * Idempotency-Key draft and Stripe keep the first answer, errors included, so that a retry learns
 * the same thing without the work running again; transient failures and 5xx still release the key.
 */
public enum ClientErrorHandling {

    /** Take it from the configuration (an annotation's default). */
    DEFAULT,

    /** Keep the failure and replay it to every duplicate, as a result is (the default). */
    REPLAY,

    /** Release the key, as for any other failure: the next duplicate runs the method again. */
    RELEASE
}
