package io.github.resiliencestarter.retry.backoff;

/** The back-off strategies selectable from annotations and properties. */
public enum BackOffType {

    /** Not set here: taken from the named instance or the defaults. */
    DEFAULT,

    /** The same delay every time ({@code delay}). */
    FIXED,

    /** {@code delay × multiplier^(retry-1)}, capped at {@code max-delay}. */
    EXPONENTIAL,

    /** Uniformly random between {@code delay} and {@code max-delay}. */
    RANDOM
}
