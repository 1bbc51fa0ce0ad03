package io.github.resiliencestarter.autoconfigure.retry;

import io.github.resiliencestarter.retry.backoff.BackOffType;
import io.github.resiliencestarter.retry.backoff.JitterType;
import io.github.resiliencestarter.rollout.EnforcementMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The retry settings shared by the defaults ({@link RetryProperties}) and the named instances
 * ({@link RetryInstanceProperties}); an unset value inherits.
 */
public class RetrySettings {


    /** Attempts, counting the first (default 3). */
    private @Nullable Integer maxAttempts;

    /** Back-off strategy: FIXED, EXPONENTIAL (default) or RANDOM. */
    private @Nullable BackOffType backoff;

    /** Fixed delay, first exponential delay, or random minimum (default 100ms). */
    private @Nullable Duration delay;

    /** Exponential cap, or random maximum (default 1s). */
    private @Nullable Duration maxDelay;

    /** Exponential growth per retry (default 2.0). */
    private @Nullable Double multiplier;

    /** Jitter strategy: NONE, FULL (default), EQUAL, DECORRELATED or PROPORTIONAL. */
    private @Nullable JitterType jitter;

    /** Spread of PROPORTIONAL jitter, between 0 and 1 (default 0.5). */
    private @Nullable Double jitterFactor;

    /** Limit of each attempt; unset means attempts are bounded only by the deadline. */
    private @Nullable Duration attemptTimeout;

    /** Longest wait a server's Retry-After may ask for (default 30s); a longer one waits this long. */
    private @Nullable Duration maxRetryAfter;

    /**
     * ENFORCE (default) retries; OBSERVE makes one attempt and counts the retry that was due
     * (outcome would_retry). Live (docs/rollout.md).
     */
    private @Nullable EnforcementMode mode;

    /** In mode ENFORCE, the share of requests (0 to 100 %, by trace id) that retry (default 100). Live. */
    private @Nullable Double rollout;

    /** More failure types to retry, wherever they appear in the cause chain. */
    private List<Class<? extends Throwable>> retryFor = new ArrayList<>();

    /** Failure types never to retry, wherever they appear in the cause chain; wins over retry-for. */
    private List<Class<? extends Throwable>> noRetryFor = new ArrayList<>();

    public @Nullable EnforcementMode getMode() {
        return mode;
    }

    public void setMode(@Nullable EnforcementMode mode) {
        this.mode = mode;
    }

    public @Nullable Double getRollout() {
        return rollout;
    }

    public void setRollout(@Nullable Double rollout) {
        this.rollout = rollout;
    }

    public @Nullable Integer getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(@Nullable Integer maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public @Nullable BackOffType getBackoff() {
        return backoff;
    }

    public void setBackoff(@Nullable BackOffType backoff) {
        this.backoff = backoff;
    }

    public @Nullable Duration getDelay() {
        return delay;
    }

    public void setDelay(@Nullable Duration delay) {
        this.delay = delay;
    }

    public @Nullable Duration getMaxDelay() {
        return maxDelay;
    }

    public void setMaxDelay(@Nullable Duration maxDelay) {
        this.maxDelay = maxDelay;
    }

    public @Nullable Double getMultiplier() {
        return multiplier;
    }

    public void setMultiplier(@Nullable Double multiplier) {
        this.multiplier = multiplier;
    }

    public @Nullable JitterType getJitter() {
        return jitter;
    }

    public void setJitter(@Nullable JitterType jitter) {
        this.jitter = jitter;
    }

    public @Nullable Double getJitterFactor() {
        return jitterFactor;
    }

    public void setJitterFactor(@Nullable Double jitterFactor) {
        this.jitterFactor = jitterFactor;
    }

    public @Nullable Duration getMaxRetryAfter() {
        return maxRetryAfter;
    }

    public void setMaxRetryAfter(@Nullable Duration maxRetryAfter) {
        this.maxRetryAfter = maxRetryAfter;
    }

    public @Nullable Duration getAttemptTimeout() {
        return attemptTimeout;
    }

    public void setAttemptTimeout(@Nullable Duration attemptTimeout) {
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
