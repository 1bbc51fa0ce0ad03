package io.github.resiliencestarter.timeout;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Default and named {@link TimeoutConfig}s, as configured under {@code resilience.timeout.*} and
 * {@code resilience.timeout.instances.<name>.*}. Immutable.
 */
public final class TimeoutConfigRegistry {

    private final TimeoutConfig defaults;

    private final Map<String, TimeoutConfig> instances;

    private TimeoutConfigRegistry(TimeoutConfig defaults, Map<String, TimeoutConfig> instances) {
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.instances = Map.copyOf(instances);
    }

    /**
     * Creates a registry.
     *
     * @param defaults the settings for unnamed and unknown instances
     * @param instances settings per instance name
     * @return the registry
     */
    public static TimeoutConfigRegistry of(TimeoutConfig defaults, Map<String, TimeoutConfig> instances) {
        return new TimeoutConfigRegistry(defaults, instances);
    }

    /**
     * A registry holding only the engine defaults.
     *
     * @return the registry
     */
    public static TimeoutConfigRegistry ofDefaults() {
        return new TimeoutConfigRegistry(TimeoutConfig.ofDefaults(), Map.of());
    }

    /**
     * The settings of {@code name}, or the defaults when no such instance is configured.
     *
     * @param name an instance name, possibly empty or {@code null}
     * @return the settings
     */
    public TimeoutConfig config(@Nullable String name) {
        if (name == null || name.isEmpty()) {
            return defaults;
        }
        return instances.getOrDefault(name, defaults);
    }

    /**
     * The configured instance names.
     *
     * @return the names
     */
    public Set<String> names() {
        return instances.keySet();
    }
}
