package io.github.resiliencestarter.autoconfigure.timeout;

import io.github.resiliencestarter.timeout.TimeoutConfig;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Adjusts the settings of one named timeout instance in code, after the properties under
 * {@code resilience.timeout.instances.<name>} were applied (or on top of the defaults when the name
 * has none), without replacing the registry bean. Declare one bean per instance:
 *
 * <pre>{@code
 * @Bean
 * TimeoutConfigCustomizer inventoryTimeout() {
 *     return TimeoutConfigCustomizer.of("inventory", builder -> builder.timeout(Duration.ofMillis(800)));
 * }
 * }</pre>
 */
public interface TimeoutConfigCustomizer {

    /**
     * The instance this customizer adjusts.
     *
     * @return the instance name, as used in {@code @Timeout(name = ...)}
     */
    String name();

    /**
     * Adjusts the instance's settings.
     *
     * @param builder holds the settings from the properties; changes here win
     */
    void customize(TimeoutConfig.Builder builder);

    /**
     * A customizer from a name and a function.
     *
     * @param name the instance name
     * @param customizer adjusts the builder
     * @return the customizer
     */
    static TimeoutConfigCustomizer of(String name, Consumer<TimeoutConfig.Builder> customizer) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(customizer, "customizer");
        return new TimeoutConfigCustomizer() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void customize(TimeoutConfig.Builder builder) {
                customizer.accept(builder);
            }
        };
    }
}
