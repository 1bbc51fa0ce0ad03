package io.github.resiliencestarter.autoconfigure.circuit;

import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The circuit-breaker settings shared by the defaults ({@link CircuitBreakerProperties}) and the
 * named instances ({@link CircuitBreakerInstanceProperties}); an unset value inherits.
 */
public class CircuitBreakerSettings {

    /** Failure rate, in percent of the window's calls, at which the circuit opens (default 50). */
    private @Nullable Float failureRateThreshold;

    /** Slow-call rate, in percent of the window's calls, at which the circuit opens (default 100). */
    private @Nullable Float slowCallRateThreshold;

    /**
     * From how long a call is slow (default 2s); also the least time an attempt cut by the
     * caller's deadline must have run to count against the downstream.
     */
    private @Nullable Duration slowCallDuration;

    /** Whether the window counts calls (COUNT_BASED, the default) or seconds (TIME_BASED). */
    private CircuitBreakerConfig.@Nullable SlidingWindow slidingWindowType;

    /** Calls, or seconds, in the sliding window (default 100). */
    private @Nullable Integer slidingWindowSize;

    /** Calls the window needs before a rate can open the circuit (default 20). */
    private @Nullable Integer minimumCalls;

    /** How long the circuit stays open before it lets probes through (default 10s). */
    private @Nullable Duration waitInOpenState;

    /** Probes let through half-open (default 5). */
    private @Nullable Integer halfOpenCalls;

    /** How long the circuit may wait half-open for its probes before it opens again (default 60s); 0 waits for them. */
    private @Nullable Duration maxWaitInHalfOpenState;

    /** How long admitted traffic ramps up after the circuit closes again (default 30s); 0 admits all at once. */
    private @Nullable Duration warmUp;

    /** Share of calls admitted when the ramp starts, in percent: above 0 and at most 100 (default 10). */
    private @Nullable Double warmUpStartPercent;

    /** More failure types that count against the downstream, wherever they appear in the cause chain. */
    private List<Class<? extends Throwable>> recordFor = new ArrayList<>();

    /** Failure types that never count, wherever they appear in the cause chain; wins over record-for. */
    private List<Class<? extends Throwable>> ignoreFor = new ArrayList<>();

    /**
     * With Spring Cloud LoadBalancer: one breaker per instance of the service of this name
     * (name[host:port]), so the balancer leaves out an instance whose circuit is open (default false).
     */
    private @Nullable Boolean perInstance;

    public @Nullable Boolean getPerInstance() {
        return perInstance;
    }

    public void setPerInstance(@Nullable Boolean perInstance) {
        this.perInstance = perInstance;
    }

    public @Nullable Float getFailureRateThreshold() {
        return failureRateThreshold;
    }

    public void setFailureRateThreshold(@Nullable Float failureRateThreshold) {
        this.failureRateThreshold = failureRateThreshold;
    }

    public @Nullable Float getSlowCallRateThreshold() {
        return slowCallRateThreshold;
    }

    public void setSlowCallRateThreshold(@Nullable Float slowCallRateThreshold) {
        this.slowCallRateThreshold = slowCallRateThreshold;
    }

    public @Nullable Duration getSlowCallDuration() {
        return slowCallDuration;
    }

    public void setSlowCallDuration(@Nullable Duration slowCallDuration) {
        this.slowCallDuration = slowCallDuration;
    }

    public CircuitBreakerConfig.@Nullable SlidingWindow getSlidingWindowType() {
        return slidingWindowType;
    }

    public void setSlidingWindowType(CircuitBreakerConfig.@Nullable SlidingWindow slidingWindowType) {
        this.slidingWindowType = slidingWindowType;
    }

    public @Nullable Integer getSlidingWindowSize() {
        return slidingWindowSize;
    }

    public void setSlidingWindowSize(@Nullable Integer slidingWindowSize) {
        this.slidingWindowSize = slidingWindowSize;
    }

    public @Nullable Integer getMinimumCalls() {
        return minimumCalls;
    }

    public void setMinimumCalls(@Nullable Integer minimumCalls) {
        this.minimumCalls = minimumCalls;
    }

    public @Nullable Duration getWaitInOpenState() {
        return waitInOpenState;
    }

    public void setWaitInOpenState(@Nullable Duration waitInOpenState) {
        this.waitInOpenState = waitInOpenState;
    }

    public @Nullable Integer getHalfOpenCalls() {
        return halfOpenCalls;
    }

    public void setHalfOpenCalls(@Nullable Integer halfOpenCalls) {
        this.halfOpenCalls = halfOpenCalls;
    }

    public @Nullable Duration getMaxWaitInHalfOpenState() {
        return maxWaitInHalfOpenState;
    }

    public void setMaxWaitInHalfOpenState(@Nullable Duration maxWaitInHalfOpenState) {
        this.maxWaitInHalfOpenState = maxWaitInHalfOpenState;
    }

    public @Nullable Duration getWarmUp() {
        return warmUp;
    }

    public void setWarmUp(@Nullable Duration warmUp) {
        this.warmUp = warmUp;
    }

    public @Nullable Double getWarmUpStartPercent() {
        return warmUpStartPercent;
    }

    public void setWarmUpStartPercent(@Nullable Double warmUpStartPercent) {
        this.warmUpStartPercent = warmUpStartPercent;
    }

    public List<Class<? extends Throwable>> getRecordFor() {
        return recordFor;
    }

    public void setRecordFor(List<Class<? extends Throwable>> recordFor) {
        this.recordFor = recordFor;
    }

    public List<Class<? extends Throwable>> getIgnoreFor() {
        return ignoreFor;
    }

    public void setIgnoreFor(List<Class<? extends Throwable>> ignoreFor) {
        this.ignoreFor = ignoreFor;
    }

    /**
     * These settings over {@code base}: every value set here wins.
     *
     * @param base the inherited settings
     * @return the merged settings
     */
    CircuitBreakerConfig over(CircuitBreakerConfig base) {
        CircuitBreakerConfig.Builder builder = CircuitBreakerConfig.from(base);
        if (failureRateThreshold != null) {
            builder.failureRateThreshold(failureRateThreshold);
        }
        if (slowCallRateThreshold != null) {
            builder.slowCallRateThreshold(slowCallRateThreshold);
        }
        if (slowCallDuration != null) {
            builder.slowCallDuration(slowCallDuration);
        }
        if (slidingWindowType != null || slidingWindowSize != null) {
            builder.slidingWindow(slidingWindowType != null ? slidingWindowType : base.slidingWindow(),
                    slidingWindowSize != null ? slidingWindowSize : base.slidingWindowSize());
        }
        if (minimumCalls != null) {
            builder.minimumCalls(minimumCalls);
        }
        if (waitInOpenState != null) {
            builder.waitInOpenState(waitInOpenState);
        }
        if (halfOpenCalls != null) {
            builder.halfOpenCalls(halfOpenCalls);
        }
        if (maxWaitInHalfOpenState != null) {
            builder.maxWaitInHalfOpenState(maxWaitInHalfOpenState);
        }
        if (warmUp != null || warmUpStartPercent != null) {
            builder.warmUp(warmUp != null ? warmUp : base.warmUp(),
                    warmUpStartPercent != null ? warmUpStartPercent : base.warmUpStartPercent());
        }
        if (perInstance != null) {
            builder.perInstance(perInstance);
        }
        if (!recordFor.isEmpty() || !ignoreFor.isEmpty()) {
            builder.classifier(base.classifier().toBuilder().retryFor(recordFor).noRetryFor(ignoreFor).build());
        }
        return builder.build();
    }
}
