package io.github.resiliencestarter.autoconfigure.retry;

import io.github.resiliencestarter.retry.BackOffType;
import io.github.resiliencestarter.retry.JitterType;
import io.github.resiliencestarter.retry.RetryBudget;
import io.github.resiliencestarter.retry.RetryClassifier;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.retry.RetryPolicy;
import io.github.resiliencestarter.retry.RetryRule;
import io.github.resiliencestarter.retry.support.BackOffs;
import io.github.resiliencestarter.retry.support.ExponentialBackOff;
import io.github.resiliencestarter.retry.support.RatioRetryBudget;
import io.github.resiliencestarter.context.Ticker;
import io.github.resiliencestarter.spring.aop.RetrySafetyMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code @Retry} settings: defaults under {@code resilience.retry.*}, named instances under
 * {@code resilience.retry.instances.<name>.*}, the retry budget and the safety gate.
 */
@ConfigurationProperties("resilience.retry")
public class RetryProperties {

    /** Default hard cap on attempts. */
    public static final int DEFAULT_MAX_ATTEMPTS_CAP = 10;

    /** Default spread of proportional jitter. */
    public static final double DEFAULT_JITTER_FACTOR = 0.5;

    /** Whether @Retry is applied. */
    private boolean enabled = true;

    /** Attempts, counting the first. */
    private int maxAttempts = RetryPolicy.DEFAULT_MAX_ATTEMPTS;

    /** The most attempts any method or instance may configure; more fails the start. */
    private int maxAttemptsCap = DEFAULT_MAX_ATTEMPTS_CAP;

    /** Back-off strategy: FIXED, EXPONENTIAL or RANDOM. */
    private BackOffType backoff = BackOffType.EXPONENTIAL;

    /** Fixed delay, first exponential delay, or random minimum. */
    private Duration delay = ExponentialBackOff.DEFAULT_INITIAL;

    /** Exponential cap, or random maximum. */
    private Duration maxDelay = ExponentialBackOff.DEFAULT_MAX;

    /** Exponential growth per retry. */
    private double multiplier = ExponentialBackOff.DEFAULT_MULTIPLIER;

    /** Jitter strategy: NONE, FULL, EQUAL, DECORRELATED or PROPORTIONAL. */
    private JitterType jitter = JitterType.FULL;

    /** Spread of PROPORTIONAL jitter, between 0 and 1. */
    private double jitterFactor = DEFAULT_JITTER_FACTOR;

    /** Limit of each attempt; unset means attempts are bounded only by the deadline. */
    private Duration attemptTimeout;

    /** More failure types to retry, wherever they appear in the cause chain. */
    private List<Class<? extends Throwable>> retryFor = new ArrayList<>();

    /** Failure types never to retry, wherever they appear in the cause chain; wins over retry-for. */
    private List<Class<? extends Throwable>> noRetryFor = new ArrayList<>();

    /** What to do at startup with a @Retry method not known to be idempotent: FAIL, WARN or ALLOW. */
    private RetrySafetyMode safetyGate = RetrySafetyMode.FAIL;

    /** Named settings, selected with @Retry(name = "..."); unset values fall back to the defaults above. */
    private Map<String, Instance> instances = new LinkedHashMap<>();

    private final Budget budget = new Budget();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public int getMaxAttemptsCap() {
        return maxAttemptsCap;
    }

    public void setMaxAttemptsCap(int maxAttemptsCap) {
        this.maxAttemptsCap = maxAttemptsCap;
    }

    public BackOffType getBackoff() {
        return backoff;
    }

    public void setBackoff(BackOffType backoff) {
        this.backoff = backoff;
    }

    public Duration getDelay() {
        return delay;
    }

    public void setDelay(Duration delay) {
        this.delay = delay;
    }

    public Duration getMaxDelay() {
        return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
        this.maxDelay = maxDelay;
    }

    public double getMultiplier() {
        return multiplier;
    }

    public void setMultiplier(double multiplier) {
        this.multiplier = multiplier;
    }

    public JitterType getJitter() {
        return jitter;
    }

    public void setJitter(JitterType jitter) {
        this.jitter = jitter;
    }

    public double getJitterFactor() {
        return jitterFactor;
    }

    public void setJitterFactor(double jitterFactor) {
        this.jitterFactor = jitterFactor;
    }

    public Duration getAttemptTimeout() {
        return attemptTimeout;
    }

    public void setAttemptTimeout(Duration attemptTimeout) {
        this.attemptTimeout = attemptTimeout;
    }

    public List<Class<? extends Throwable>> getRetryFor() {
        return retryFor;
    }

    public void setRetryFor(List<Class<? extends Throwable>> retryFor) {
        this.retryFor = retryFor;
    }

    public List<Class<? extends Throwable>> getNoRetryFor() {
        return noRetryFor;
    }

    public void setNoRetryFor(List<Class<? extends Throwable>> noRetryFor) {
        this.noRetryFor = noRetryFor;
    }

    public RetrySafetyMode getSafetyGate() {
        return safetyGate;
    }

    public void setSafetyGate(RetrySafetyMode safetyGate) {
        this.safetyGate = safetyGate;
    }

    public Map<String, Instance> getInstances() {
        return instances;
    }

    public void setInstances(Map<String, Instance> instances) {
        this.instances = instances;
    }

    public Budget getBudget() {
        return budget;
    }

    /**
     * The registry these properties describe.
     *
     * @param rules extra classification rules (Spring's exception types), asked before the defaults
     * @return default and named policies, with a budget per name
     */
    public RetryConfigRegistry toRegistry(List<? extends RetryRule> rules) {
        RetryPolicy defaults = policy(RetryPolicy.custom(), rules, null);
        Map<String, RetryPolicy> named = new LinkedHashMap<>();
        instances.forEach((name, instance) -> named.put(name, policy(RetryPolicy.from(defaults), rules, instance)));
        return RetryConfigRegistry.of(defaults, named, budget::create);
    }

    private RetryPolicy policy(RetryPolicy.Builder builder, List<? extends RetryRule> rules, Instance instance) {
        if (instance == null) {
            checkCap(maxAttempts, "resilience.retry.max-attempts");
            RetryClassifier.Builder classifier = RetryClassifier.builder().retryFor(retryFor).noRetryFor(noRetryFor);
            for (RetryRule rule : rules) {
                classifier.rule(rule);
                if (rule instanceof RetryClassifier.RetryAfterSource source) {
                    classifier.retryAfterSource(source);
                }
            }
            builder.maxAttempts(maxAttempts).backOff(BackOffs.of(backoff, delay, maxDelay, multiplier))
                    .jitter(jitter.toJitter(jitterFactor)).classifier(classifier.build()).attemptTimeout(attemptTimeout);
            return builder.build();
        }
        RetryPolicy base = builder.build();
        if (instance.getMaxAttempts() != null) {
            checkCap(instance.getMaxAttempts(), "resilience.retry.instances.*.max-attempts");
            builder.maxAttempts(instance.getMaxAttempts());
        }
        builder.backOff(BackOffs.override(base.backOff(), instance.getBackoff(), instance.getDelay(),
                instance.getMaxDelay(), instance.getMultiplier()));
        if (instance.getJitter() != null && instance.getJitter() != JitterType.DEFAULT) {
            builder.jitter(instance.getJitter().toJitter(
                    instance.getJitterFactor() != null ? instance.getJitterFactor() : jitterFactor));
        }
        if (!instance.getRetryFor().isEmpty() || !instance.getNoRetryFor().isEmpty()) {
            builder.classifier(base.classifier().toBuilder().retryFor(instance.getRetryFor())
                    .noRetryFor(instance.getNoRetryFor()).build());
        }
        if (instance.getAttemptTimeout() != null) {
            builder.attemptTimeout(instance.getAttemptTimeout());
        }
        return builder.build();
    }

    private void checkCap(int attempts, String property) {
        if (attempts < 1 || attempts > maxAttemptsCap) {
            throw new IllegalArgumentException(property + " is " + attempts + "; allowed are 1 to " + maxAttemptsCap
                    + " (resilience.retry.max-attempts-cap)");
        }
    }

    /** One named instance; unset values come from the defaults. */
    public static class Instance {

        /** Attempts, counting the first. */
        private Integer maxAttempts;

        /** Back-off strategy: FIXED, EXPONENTIAL or RANDOM. */
        private BackOffType backoff;

        /** Fixed delay, first exponential delay, or random minimum. */
        private Duration delay;

        /** Exponential cap, or random maximum. */
        private Duration maxDelay;

        /** Exponential growth per retry. */
        private Double multiplier;

        /** Jitter strategy. */
        private JitterType jitter;

        /** Spread of PROPORTIONAL jitter. */
        private Double jitterFactor;

        /** Limit of each attempt. */
        private Duration attemptTimeout;

        /** More failure types to retry. */
        private List<Class<? extends Throwable>> retryFor = new ArrayList<>();

        /** Failure types never to retry. */
        private List<Class<? extends Throwable>> noRetryFor = new ArrayList<>();

        public Integer getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(Integer maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public BackOffType getBackoff() {
            return backoff;
        }

        public void setBackoff(BackOffType backoff) {
            this.backoff = backoff;
        }

        public Duration getDelay() {
            return delay;
        }

        public void setDelay(Duration delay) {
            this.delay = delay;
        }

        public Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }

        public Double getMultiplier() {
            return multiplier;
        }

        public void setMultiplier(Double multiplier) {
            this.multiplier = multiplier;
        }

        public JitterType getJitter() {
            return jitter;
        }

        public void setJitter(JitterType jitter) {
            this.jitter = jitter;
        }

        public Double getJitterFactor() {
            return jitterFactor;
        }

        public void setJitterFactor(Double jitterFactor) {
            this.jitterFactor = jitterFactor;
        }

        public Duration getAttemptTimeout() {
            return attemptTimeout;
        }

        public void setAttemptTimeout(Duration attemptTimeout) {
            this.attemptTimeout = attemptTimeout;
        }

        public List<Class<? extends Throwable>> getRetryFor() {
            return retryFor;
        }

        public void setRetryFor(List<Class<? extends Throwable>> retryFor) {
            this.retryFor = retryFor;
        }

        public List<Class<? extends Throwable>> getNoRetryFor() {
            return noRetryFor;
        }

        public void setNoRetryFor(List<Class<? extends Throwable>> noRetryFor) {
            this.noRetryFor = noRetryFor;
        }
    }

    /** The retry budget that stops retry storms; one per instance name (or per method when unnamed). */
    public static class Budget {

        /** Whether retries are limited by a budget. */
        private boolean enabled = true;

        /** Share of retries allowed among calls over the window. */
        private double ratio = RatioRetryBudget.DEFAULT_RATIO;

        /** Retries always allowed per second of window, whatever the ratio. */
        private int minRetriesPerSecond = RatioRetryBudget.DEFAULT_MIN_RETRIES_PER_SECOND;

        /** Sliding window over which calls and retries are counted. */
        private Duration window = RatioRetryBudget.DEFAULT_WINDOW;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public double getRatio() {
            return ratio;
        }

        public void setRatio(double ratio) {
            this.ratio = ratio;
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
            return enabled ? new RatioRetryBudget(ratio, minRetriesPerSecond, window, Ticker.SYSTEM)
                    : RetryBudget.UNLIMITED;
        }
    }
}
