package io.github.resiliencestarter.autoconfigure.timeout;

import io.github.resiliencestarter.timeout.TimeoutMode;
import java.time.Duration;

/**
 * Timeout settings of one named instance ({@code resilience.timeout.instances.<name>.*}); unset
 * values come from the defaults. {@link TimeoutProperties} holds the defaults in the same shape.
 */
public class TimeoutInstanceProperties {

    /** Local limit (default 1s). */
    private Duration duration;

    /** Enforcement: OFFLOAD (default) or INTERRUPT. */
    private TimeoutMode mode;

    public Duration getDuration() {
        return duration;
    }

    public void setDuration(Duration duration) {
        this.duration = duration;
    }

    public TimeoutMode getMode() {
        return mode;
    }

    public void setMode(TimeoutMode mode) {
        this.mode = mode;
    }
}
