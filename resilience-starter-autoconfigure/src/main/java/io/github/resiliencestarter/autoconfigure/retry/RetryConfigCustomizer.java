package io.github.resiliencestarter.autoconfigure.retry;

import io.github.resiliencestarter.retry.RetryConfig;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Adjusts the settings of one named retry instance in code, after the properties under
 * {@code resilience.retry.instances.<name>} were applied (or on top of the defaults when the name
 * has none), without replacing the registry bean. Declare one bean per instance:
 *
 * <pre>{@code
 * @Bean
 * RetryConfigCustomizer inventoryRetry() {
 *     return RetryConfigCustomizer.of("inventory", builder -> builder.retryOnResult(r -> r == null));
 * }
 * }</pre>
 */
public interface RetryConfigCustomizer {

    /**
     * The instance this customizer adjusts.
     *
     * @return the instance name, as used in {@code @Retry(name = ...)}
     */
    String name();

    /**
     * Adjusts the instance's settings.
     *
     * @param builder holds the settings from the properties; changes here win
     */
    void customize(RetryConfig.Builder builder);

    /**
     * A customizer from a name and a function.
     *
     * @param name the instance name
     * @param customizer adjusts the builder
     * @return the customizer
     */
    static RetryConfigCustomizer of(String name, Consumer<RetryConfig.Builder> customizer) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(customizer, "customizer");
        return new RetryConfigCustomizer() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void customize(RetryConfig.Builder builder) {
                customizer.accept(builder);
            }
        };
    }
}
