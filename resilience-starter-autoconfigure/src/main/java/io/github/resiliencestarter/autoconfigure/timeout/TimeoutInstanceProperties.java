package io.github.resiliencestarter.autoconfigure.timeout;

import io.github.resiliencestarter.timeout.TimeoutMode;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Timeout settings of one named instance ({@code resilience.timeout.instances.<name>.*}); unset
 * values come from the defaults. {@link TimeoutProperties} holds the defaults in the same shape.
 */
public class TimeoutInstanceProperties {

    /** Local limit (default 1s). */
    private @Nullable Duration duration;

    /**
     * Enforcement: OFFLOAD (default) or INTERRUPT; or OBSERVE, which cuts nothing and counts the
     * calls that ran past the limit (outcome would_timeout). Live (docs/rollout.md).
     */
    private @Nullable TimeoutMode mode;

    /**
     * The share of requests (0 to 100 %, by trace id) the limit is enforced on in mode OFFLOAD or
     * INTERRUPT; the others are observed (default 100). Live.
     */
    private @Nullable Double rollout;

    public @Nullable Duration getDuration() {
        return duration;
    }

    public void setDuration(@Nullable Duration duration) {
        this.duration = duration;
    }

    public @Nullable TimeoutMode getMode() {
        return mode;
    }

    public void setMode(@Nullable TimeoutMode mode) {
        this.mode = mode;
    }

    public @Nullable Double getRollout() {
        return rollout;
    }

    public void setRollout(@Nullable Double rollout) {
        this.rollout = rollout;
    }
}
