package io.github.resiliencestarter.autoconfigure.circuit;

import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Adjusts the settings of one named breaker in code, after the properties under
 * {@code resilience.circuit-breaker.instances.<name>} were applied (or on top of the defaults when
 * the name has none). Declare one bean per breaker:
 *
 * <pre>{@code
 * @Bean
 * CircuitBreakerConfigCustomizer inventoryBreaker() {
 *     return CircuitBreakerConfigCustomizer.of("inventory", builder -> builder.halfOpenCalls(2));
 * }
 * }</pre>
 */
public interface CircuitBreakerConfigCustomizer {

    /**
     * The breaker this customizer adjusts.
     *
     * @return the name, as used in {@code @CircuitBreaker(name = ...)}
     */
    String name();

    /**
     * Adjusts the breaker's settings.
     *
     * @param builder holds the settings from the properties; changes here win
     */
    void customize(CircuitBreakerConfig.Builder builder);

    /**
     * A customizer from a name and a function.
     *
     * @param name the breaker's name
     * @param customizer adjusts the builder
     * @return the customizer
     */
    static CircuitBreakerConfigCustomizer of(String name, Consumer<CircuitBreakerConfig.Builder> customizer) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(customizer, "customizer");
        return new CircuitBreakerConfigCustomizer() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void customize(CircuitBreakerConfig.Builder builder) {
                customizer.accept(builder);
            }
        };
    }
}
