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

    /** Enforcement: OFFLOAD (default) or INTERRUPT. */
    private @Nullable TimeoutMode mode;

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
}
