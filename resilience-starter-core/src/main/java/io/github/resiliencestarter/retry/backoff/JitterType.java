package io.github.resiliencestarter.retry.backoff;


/** The jitter strategies selectable from annotations and properties; see {@link Jitters}. */
public enum JitterType {

    /** Not set here: taken from the named instance or the defaults. */
    DEFAULT,

    /** No jitter. */
    NONE,

    /** Uniform in {@code [0, delay]}; the default. */
    FULL,

    /** Half fixed, half random. */
    EQUAL,

    /** Drawn from the initial delay up to three times the previous delay. */
    DECORRELATED,

    /** The delay ± {@code jitter-factor} of itself. */
    PROPORTIONAL;

    /**
     * The strategy this type names.
     *
     * @param factor the spread, used by {@link #PROPORTIONAL} only
     * @return the strategy
     */
    public Jitter toJitter(double factor) {
        return switch (this) {
            case NONE -> Jitters.none();
            case FULL -> Jitters.full();
            case EQUAL -> Jitters.equal();
            case DECORRELATED -> Jitters.decorrelated();
            case PROPORTIONAL -> Jitters.proportional(factor);
            case DEFAULT -> throw new IllegalArgumentException("DEFAULT names no jitter strategy");
        };
    }
}
