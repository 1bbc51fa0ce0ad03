package io.github.resiliencestarter.spring.actuate;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * When the settings in force last changed at run time, for {@code /actuator/resilience}: the
 * auto-configuration's live tuning implements it.
 */
public interface SettingsChanges {

    /**
     * How many times new settings were applied since the start.
     *
     * @return 0 while the startup settings are in force
     */
    long generation();

    /**
     * When the settings in force were applied.
     *
     * @return the time of the last change, or of the start
     */
    Instant appliedAt();

    /**
     * Why the last refused change was refused.
     *
     * @return the reason, or {@code null} when none was refused
     */
    @Nullable String lastRejection();
}
