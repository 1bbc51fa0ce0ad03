package io.github.resiliencestarter.autoconfigure.retry;

import io.github.resiliencestarter.retry.backoff.BackOffType;
import io.github.resiliencestarter.retry.backoff.JitterType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The retry settings shared by the defaults ({@link RetryProperties}) and the named instances
 * ({@link RetryInstanceProperties}); an unset value inherits.
 */
public class RetrySettings {


    /** Attempts, counting the first (default 3). */
    private Integer maxAttempts;

    /** Back-off strategy: FIXED, EXPONENTIAL (default) or RANDOM. */
    private BackOffType backoff;

    /** Fixed delay, first exponential delay, or random minimum (default 100ms). */
    private Duration delay;

    /** Exponential cap, or random maximum (default 1s). */
    private Duration maxDelay;

    /** Exponential growth per retry (default 2.0). */
    private Double multiplier;

    /** Jitter strategy: NONE, FULL (default), EQUAL, DECORRELATED or PROPORTIONAL. */
    private JitterType jitter;

    /** Spread of PROPORTIONAL jitter, between 0 and 1 (default 0.5). */
    private Double jitterFactor;

    /** Limit of each attempt; unset means attempts are bounded only by the deadline. */
    private Duration attemptTimeout;

    /** More failure types to retry, wherever they appear in the cause chain. */
    private List<Class<? extends Throwable>> retryFor = new ArrayList<>();

    /** Failure types never to retry, wherever they appear in the cause chain; wins over retry-for. */
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
