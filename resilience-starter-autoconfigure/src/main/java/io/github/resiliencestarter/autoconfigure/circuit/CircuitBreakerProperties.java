package io.github.resiliencestarter.autoconfigure.circuit;

import io.github.resiliencestarter.autoconfigure.PropertyChecks;
import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.retry.RetryClassifier;
import io.github.resiliencestarter.retry.RetryRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * {@code @CircuitBreaker} settings: defaults under {@code resilience.circuit-breaker.*}, named
 * breakers under {@code resilience.circuit-breaker.instances.<name>.*}.
 */
@ConfigurationProperties("resilience.circuit-breaker")
public class CircuitBreakerProperties extends CircuitBreakerSettings implements Validator {

    /** Whether @CircuitBreaker is applied (it also needs resilience4j-circuitbreaker on the class path). */
    private boolean enabled = true;

    /** Named breakers, selected with @CircuitBreaker(name = "..."); unset values fall back to the defaults above. */
    private Map<String, CircuitBreakerInstanceProperties> instances = new LinkedHashMap<>();

    /** Starts from the engine's defaults, so they show up as this class's values. */
    public CircuitBreakerProperties() {
        CircuitBreakerConfig engine = CircuitBreakerConfig.ofDefaults();
        setFailureRateThreshold(engine.failureRateThreshold());
        setSlowCallRateThreshold(engine.slowCallRateThreshold());
        setSlowCallDuration(engine.slowCallDuration());
        setSlidingWindowType(engine.slidingWindow());
        setSlidingWindowSize(engine.slidingWindowSize());
        setMinimumCalls(engine.minimumCalls());
        setWaitInOpenState(engine.waitInOpenState());
        setHalfOpenCalls(engine.halfOpenCalls());
        setMaxWaitInHalfOpenState(engine.maxWaitInHalfOpenState());
        setWarmUp(engine.warmUp());
        setWarmUpStartPercent(engine.warmUpStartPercent());
        setPerInstance(engine.perInstance());
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Map<String, CircuitBreakerInstanceProperties> getInstances() {
        return instances;
    }

    public void setInstances(Map<String, CircuitBreakerInstanceProperties> instances) {
        this.instances = instances;
    }

    /**
     * The defaults these properties describe.
     *
     * @param rules extra classification rules (Spring's exception types), asked before the defaults
     * @return the default settings
     */
    public CircuitBreakerConfig defaults(List<? extends RetryRule> rules) {
        RetryClassifier.Builder classifier = RetryClassifier.builder().ioFailuresTransient(true);
        rules.forEach(classifier::rule);
        return over(CircuitBreakerConfig.custom().classifier(classifier.build()).build());
    }

    /**
     * The named settings these properties describe, customizers applied last.
     *
     * @param defaults the defaults, from {@link #defaults}
     * @param customizers adjust named breakers in code
     * @return settings per name
     */
    public Map<String, CircuitBreakerConfig> named(CircuitBreakerConfig defaults,
            List<CircuitBreakerConfigCustomizer> customizers) {
        Map<String, CircuitBreakerConfig> named = new LinkedHashMap<>();
        instances.forEach((name, instance) -> named.put(name, instance.over(defaults)));
        for (CircuitBreakerConfigCustomizer customizer : customizers) {
            CircuitBreakerConfig.Builder builder = CircuitBreakerConfig.from(named.getOrDefault(customizer.name(),
                    defaults));
            customizer.customize(builder);
            named.put(customizer.name(), builder.build());
        }
        return named;
    }

    @Override
    public boolean supports(Class<?> type) {
        return CircuitBreakerProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        PropertyChecks checks = PropertyChecks.reportingTo(errors);
        CircuitBreakerConfig[] defaults = {CircuitBreakerConfig.ofDefaults()};
        Map<String, String> renames = Map.of("slidingWindowSize", "sliding-window-size");
        checks.check("", renames, () -> defaults[0] = over(defaults[0]));
        instances.forEach((name, instance) -> checks.check("instances[" + name + "].", renames,
                () -> instance.over(defaults[0])));
    }
}
