package io.github.resiliencestarter.retry.backoff;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Builds back-offs from settings, and overrides parts of an existing one. */
public final class BackOffs {

    private BackOffs() {
    }

    /**
     * Checks the delay range shared by the exponential and random back-offs.
     *
     * @param delay the first delay or the minimum, not negative
     * @param maxDelay the cap or the maximum, at least {@code delay}
     * @throws InvalidSettingException naming {@code delay} or {@code maxDelay}
     */
    static void checkRange(@Nullable Duration delay, @Nullable Duration maxDelay) {
        if (delay == null || delay.isNegative()) {
            throw new InvalidSettingException("delay", "must not be negative", delay);
        }
        if (maxDelay == null || maxDelay.compareTo(delay) < 0) {
            throw new InvalidSettingException("maxDelay", "must be at least the delay (" + delay + ")", maxDelay);
        }
    }

    /**
     * A back-off of the given type.
     *
     * @param type FIXED, EXPONENTIAL or RANDOM
     * @param delay the fixed delay, the first delay, or the random minimum
     * @param maxDelay the cap, or the random maximum (unused for FIXED)
     * @param multiplier the growth per retry (EXPONENTIAL only)
     * @return the back-off
     */
    public static BackOff of(BackOffType type, Duration delay, Duration maxDelay, double multiplier) {
        return switch (type) {
            case FIXED -> new FixedBackOff(delay);
            case EXPONENTIAL -> new ExponentialBackOff(delay, multiplier, maxDelay);
            case RANDOM -> new UniformRandomBackOff(delay, maxDelay);
            case DEFAULT -> throw new IllegalArgumentException("DEFAULT names no back-off strategy");
        };
    }

    /**
     * {@code base} with some of its settings replaced; {@code null} (or {@link BackOffType#DEFAULT})
     * keeps the base's value.
     *
     * @param base the back-off to start from (one of this package's types)
     * @param type a new type, or DEFAULT
     * @param delay a new delay, or {@code null}
     * @param maxDelay a new cap, or {@code null}
     * @param multiplier a new multiplier, or {@code null}
     * @return the resulting back-off
     */
    public static BackOff override(BackOff base, @Nullable BackOffType type, @Nullable Duration delay,
            @Nullable Duration maxDelay, @Nullable Double multiplier) {
        if ((type == null || type == BackOffType.DEFAULT) && delay == null && maxDelay == null && multiplier == null) {
            return base;
        }
        BackOffType baseType = base instanceof FixedBackOff ? BackOffType.FIXED
                : base instanceof UniformRandomBackOff ? BackOffType.RANDOM : BackOffType.EXPONENTIAL;
        double baseMultiplier = base instanceof ExponentialBackOff exponential ? exponential.multiplier()
                : ExponentialBackOff.DEFAULT_MULTIPLIER;
        BackOffType effective = type == null || type == BackOffType.DEFAULT ? baseType : type;
        Duration effectiveDelay = delay != null ? delay : Duration.ofNanos(base.initialNanos());
        Duration effectiveMax = maxDelay != null ? maxDelay : Duration.ofNanos(base.maxNanos());
        if (effectiveMax.compareTo(effectiveDelay) < 0 && maxDelay == null) {
            // a larger delay than the inherited cap: the cap follows, rather than failing the start
            effectiveMax = effectiveDelay;
        }
        return of(effective, effectiveDelay, effectiveMax, multiplier != null ? multiplier : baseMultiplier);
    }
}
