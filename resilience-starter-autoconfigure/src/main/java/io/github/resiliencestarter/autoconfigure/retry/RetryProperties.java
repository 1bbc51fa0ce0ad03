package io.github.resiliencestarter.autoconfigure.retry;

import io.github.resiliencestarter.autoconfigure.PropertyChecks;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.retry.RetryAfterSource;
import io.github.resiliencestarter.retry.RetryBudget;
import io.github.resiliencestarter.retry.RetryClassifier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.retry.RetryRule;
import io.github.resiliencestarter.retry.backoff.BackOffType;
import io.github.resiliencestarter.retry.backoff.BackOffs;
import io.github.resiliencestarter.retry.backoff.ExponentialBackOff;
import io.github.resiliencestarter.retry.backoff.JitterType;
import io.github.resiliencestarter.retry.support.RatioRetryBudget;
import io.github.resiliencestarter.rollout.EnforcementMode;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import io.github.resiliencestarter.spring.aop.RetrySafetyMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.ClassUtils;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * {@code @Retry} settings: defaults under {@code resilience.retry.*}, named instances under
 * {@code resilience.retry.instances.<name>.*}, the retry budget and the safety gate.
 */
@ConfigurationProperties("resilience.retry")
public class RetryProperties extends RetrySettings implements Validator {

    /** Default hard cap on attempts. */
    public static final int DEFAULT_MAX_ATTEMPTS_CAP = 10;

    /** Default spread of proportional jitter. */
    public static final double DEFAULT_JITTER_FACTOR = 0.5;

    private static final boolean LOAD_BALANCER_PRESENT = ClassUtils.isPresent(
            "org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier",
            RetryProperties.class.getClassLoader());

    /** Whether @Retry is applied. */
    private boolean enabled = true;

    /**
     * With Spring Cloud LoadBalancer: whether each attempt of a retried call avoids the instances
     * that failed its earlier attempts, while another is available (rule R-5).
     */
    private boolean avoidFailedInstances = true;

    /** The most attempts any method or instance may configure; more fails the start. */
    private int maxAttemptsCap = DEFAULT_MAX_ATTEMPTS_CAP;

    /** What to do at startup with a @Retry method not known to be idempotent: FAIL, WARN or ALLOW. */
    private RetrySafetyMode safetyGate = RetrySafetyMode.FAIL;

    /** Named settings, selected with @Retry(name = "..."); unset values fall back to the defaults above. */
    private Map<String, RetryInstanceProperties> instances = new LinkedHashMap<>();

    private final Budget budget = new Budget();

    /**
     * Starts from the engine's defaults, so they show up as this class's values. The cap stays
     * unset: a larger {@code delay} then raises it, rather than failing the start.
     */
    public RetryProperties() {
        setMaxAttempts(RetryConfig.DEFAULT_MAX_ATTEMPTS);
        setBackoff(BackOffType.EXPONENTIAL);
        setDelay(ExponentialBackOff.DEFAULT_INITIAL);
        setMultiplier(ExponentialBackOff.DEFAULT_MULTIPLIER);
        setJitter(JitterType.FULL);
        setJitterFactor(DEFAULT_JITTER_FACTOR);
        setMaxRetryAfter(RetryConfig.DEFAULT_MAX_RETRY_AFTER);
        setMode(RolloutPolicy.ENFORCE_ALL.mode());
        setRollout(RolloutPolicy.ENFORCE_ALL.percent());
    }

    /**
     * The jitter factor instances fall back to: the one set here, or the default when it was
     * bound empty.
     *
     * @return the factor, never {@code null}
     */
    public double effectiveJitterFactor() {
        Double factor = getJitterFactor();
        return factor != null ? factor : DEFAULT_JITTER_FACTOR;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public boolean isAvoidFailedInstances() {
        return avoidFailedInstances;
    }

    public void setAvoidFailedInstances(boolean avoidFailedInstances) {
        this.avoidFailedInstances = avoidFailedInstances;
    }

    public int getMaxAttemptsCap() {
        return maxAttemptsCap;
    }

    public void setMaxAttemptsCap(int maxAttemptsCap) {
        this.maxAttemptsCap = maxAttemptsCap;
    }

    public RetrySafetyMode getSafetyGate() {
        return safetyGate;
    }

    public void setSafetyGate(RetrySafetyMode safetyGate) {
        this.safetyGate = safetyGate;
    }

    public Map<String, RetryInstanceProperties> getInstances() {
        return instances;
    }

    public void setInstances(Map<String, RetryInstanceProperties> instances) {
        this.instances = instances;
    }

    public Budget getBudget() {
        return budget;
    }

    /**
     * The registry these properties describe.
     *
     * @param rules extra classification rules (Spring's exception types), asked before the defaults
     * @param customizers adjust named instances in code, after the properties
     * @return default and named settings, with a budget per name
     */
    public RetryConfigRegistry toRegistry(List<? extends RetryRule> rules, List<RetryConfigCustomizer> customizers) {
        RetryClassifier.Builder classifier = RetryClassifier.builder();
        for (RetryRule rule : rules) {
            classifier.rule(rule);
            if (rule instanceof RetryAfterSource source) {
                classifier.retryAfterSource(source);
            }
        }
        // with Spring Cloud LoadBalancer, each call records the instances its attempts failed on
        RetryConfig engineDefaults = RetryConfig.custom().classifier(classifier.build())
                .avoidFailedTargets(avoidFailedInstances && LOAD_BALANCER_PRESENT).build();
        RetryConfig defaults = merge(engineDefaults, this);
        Map<String, RetryConfig> named = new LinkedHashMap<>();
        instances.forEach((name, instance) -> named.put(name, merge(defaults, instance)));
        for (RetryConfigCustomizer customizer : customizers) {
            RetryConfig.Builder builder = RetryConfig.from(named.getOrDefault(customizer.name(), defaults));
            customizer.customize(builder);
            named.put(customizer.name(), builder.build());
        }
        return RetryConfigRegistry.of(defaults, named, name -> {
            RetryInstanceProperties instance = instances.get(name);
            boolean exempt = instance != null && Boolean.FALSE.equals(instance.getBudgetEnabled());
            return exempt ? RetryBudget.UNLIMITED : budget.create();
        });
    }

    @Override
    public boolean supports(Class<?> type) {
        return RetryProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        PropertyChecks checks = PropertyChecks.reportingTo(errors);
        RetryConfig[] defaults = {RetryConfig.ofDefaults()};
        checks.check("", () -> defaults[0] = merge(defaults[0], this));
        instances.forEach((name, instance) -> checks.check("instances[" + name + "].",
                () -> merge(defaults[0], instance)));
        checks.check("budget.", budget::create);
    }

    private double instanceJitterFactor(RetrySettings settings) {
        Double own = settings.getJitterFactor();
        return own != null ? own : effectiveJitterFactor();
    }

    private RetryConfig merge(RetryConfig base, RetrySettings settings) {
        RetryConfig.Builder builder = RetryConfig.from(base);
        if (settings.getMaxAttempts() != null) {
            int attempts = settings.getMaxAttempts();
            if (attempts > maxAttemptsCap) {
                throw new InvalidSettingException("maxAttempts", "must be at most " + maxAttemptsCap
                        + " (resilience.retry.max-attempts-cap)", attempts);
            }
            builder.maxAttempts(attempts);
        }
        builder.backOff(BackOffs.override(base.backOff(), settings.getBackoff(), settings.getDelay(),
                settings.getMaxDelay(), settings.getMultiplier()));
        if (settings.getJitter() != null && settings.getJitter() != JitterType.DEFAULT) {
            builder.jitter(settings.getJitter().toJitter(
                    instanceJitterFactor(settings)));
        }
        if (!settings.getRetryFor().isEmpty() || !settings.getNoRetryFor().isEmpty()) {
            builder.classifier(base.classifier().toBuilder().retryFor(settings.getRetryFor())
                    .noRetryFor(settings.getNoRetryFor()).build());
        }
        if (settings.getAttemptTimeout() != null) {
            builder.attemptTimeout(settings.getAttemptTimeout());
        }
        if (settings.getMaxRetryAfter() != null) {
            builder.maxRetryAfter(settings.getMaxRetryAfter());
        }
        EnforcementMode mode = settings.getMode();
        Double rollout = settings.getRollout();
        if (mode != null || rollout != null) {
            builder.rollout(new RolloutPolicy(mode != null ? mode : base.rollout().mode(),
                    rollout != null ? rollout : base.rollout().percent()));
        }
        return builder.build();
    }

    /** The retry budget that stops retry storms; one per instance name (or per method when unnamed). */
    public static class Budget {

        /** Whether retries are limited by a budget. */
        private boolean enabled = true;

        /** Share of retries allowed among calls over the window, in percent (0 to 100). */
        private double percent = RatioRetryBudget.DEFAULT_PERCENT;

        /** Retries always allowed per second of window, whatever the share. */
        private int minRetriesPerSecond = RatioRetryBudget.DEFAULT_MIN_RETRIES_PER_SECOND;

        /** Sliding window over which calls and retries are counted. */
        private Duration window = RatioRetryBudget.DEFAULT_WINDOW;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public double getPercent() {
            return percent;
        }

        public void setPercent(double percent) {
            this.percent = percent;
        }

        public int getMinRetriesPerSecond() {
            return minRetriesPerSecond;
        }

        public void setMinRetriesPerSecond(int minRetriesPerSecond) {
            this.minRetriesPerSecond = minRetriesPerSecond;
        }

        public Duration getWindow() {
            return window;
        }

        public void setWindow(Duration window) {
            this.window = window;
        }

        RetryBudget create() {
            return enabled ? new RatioRetryBudget(percent, minRetriesPerSecond, window, TimeSource.SYSTEM)
                    : RetryBudget.UNLIMITED;
        }
    }
}
