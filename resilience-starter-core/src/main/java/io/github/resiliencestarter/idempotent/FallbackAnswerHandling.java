package io.github.resiliencestarter.idempotent;

/**
 * What an answer a fallback produced (a {@code @Retry}, {@code @CircuitBreaker} or {@code @Timeout}
 * fallback invoked inside the idempotent execution) does to its key. A fallback's answer is a
 * stand-in ("try later", a cached price): kept for the key's time to live, it would be replayed to
 * the client who retries later as told, and the operation would never run under that key.
 */
public enum FallbackAnswerHandling {

    /** Take it from the configuration (an annotation's default). */
    DEFAULT,

    /** Release the key: the client's next call with it runs the method again (the default). */
    RELEASE,

    /** Keep the fallback's answer and replay it to every duplicate, as a result is. */
    STORE
}
