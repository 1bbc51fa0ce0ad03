package io.github.resiliencestarter.autoconfigure.circuit;

import io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings;
import io.github.resiliencestarter.autoconfigure.tuning.TunableGroup;
import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.retry.RetryRule;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Live tuning of {@code resilience.circuit-breaker.*}: bound and checked as at startup, then every
 * breaker takes its new settings and keeps its state (see {@link io.github.resiliencestarter.circuit.CircuitGuard#reconfigure}).
 */
public class CircuitBreakerTuning implements TunableGroup {

    private final CircuitRegistry registry;

    private final ObjectProvider<RetryRule> rules;

    private final ObjectProvider<CircuitBreakerConfigCustomizer> customizers;

    /**
     * Creates the tuning.
     *
     * @param registry the breakers
     * @param rules classification rules, as at startup
     * @param customizers adjust named breakers in code, as at startup
     */
    public CircuitBreakerTuning(CircuitRegistry registry, ObjectProvider<RetryRule> rules,
            ObjectProvider<CircuitBreakerConfigCustomizer> customizers) {
        this.registry = registry;
        this.rules = rules;
        this.customizers = customizers;
    }

    @Override
    public Runnable prepare(Binder binder) {
        CircuitBreakerProperties properties = ResilienceSettings.bind(binder, "resilience.circuit-breaker",
                new CircuitBreakerProperties());
        CircuitBreakerConfig defaults = properties.defaults(rules.orderedStream().toList());
        return registry.prepare(defaults, properties.named(defaults, customizers.orderedStream().toList()));
    }
}
