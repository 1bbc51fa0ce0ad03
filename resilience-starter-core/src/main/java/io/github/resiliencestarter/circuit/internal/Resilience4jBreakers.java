package io.github.resiliencestarter.circuit.internal;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.context.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

/**
 * Builds the Resilience4j state machine a guard runs on, from the starter's settings. The
 * starter classifies every outcome itself ({@link AttemptJudge}) and reports it with
 * {@code onSuccess}, {@code onError} or {@code releasePermission}, so Resilience4j's own
 * exception predicates stay at their defaults; its clocks read the guard's time source.
 */
public final class Resilience4jBreakers {

    private Resilience4jBreakers() {
    }

    /**
     * A new breaker.
     *
     * @param name the breaker's name
     * @param config the settings
     * @param time the clock for the open wait and time-based windows
     * @return the breaker, closed
     */
    public static CircuitBreaker create(String name, CircuitBreakerConfig config, TimeSource time) {
        io.github.resilience4j.circuitbreaker.CircuitBreakerConfig engine =
                io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
                        .failureRateThreshold(config.failureRateThreshold())
                        .slowCallRateThreshold(config.slowCallRateThreshold())
                        .slowCallDurationThreshold(config.slowCallDuration())
                        .slidingWindow(config.slidingWindowSize(), config.minimumCalls(),
                                config.slidingWindow() == CircuitBreakerConfig.SlidingWindow.TIME_BASED
                                        ? SlidingWindowType.TIME_BASED : SlidingWindowType.COUNT_BASED)
                        .waitDurationInOpenState(config.waitInOpenState())
                        .permittedNumberOfCallsInHalfOpenState(config.halfOpenCalls())
                        // the half-open limit is the guard's, on its time source: Resilience4j's runs on a
                        // timer thread, and its transition there would go unnoticed by the guard's observers
                        .maxWaitDurationInHalfOpenState(Duration.ZERO)
                        // half-open on the first call after the wait: no timer thread of its own
                        .automaticTransitionFromOpenToHalfOpenEnabled(false)
                        .writableStackTraceEnabled(false)
                        .clock(new TimeSourceClock(time))
                        .currentTimestampFunction(clock -> time.nanoTime(), TimeUnit.NANOSECONDS)
                        .build();
        return CircuitBreaker.of(name, engine);
    }

    /**
     * The starter's name for a Resilience4j state; a closed breaker is {@link CircuitState#CLOSED}
     * here, the guard tells a ramping one apart.
     *
     * @param state Resilience4j's state
     * @return the starter's
     */
    public static CircuitState stateOf(CircuitBreaker.State state) {
        return switch (state) {
            case OPEN -> CircuitState.OPEN;
            case HALF_OPEN -> CircuitState.HALF_OPEN;
            case FORCED_OPEN -> CircuitState.FORCED_OPEN;
            case DISABLED, METRICS_ONLY -> CircuitState.DISABLED;
            default -> CircuitState.CLOSED;
        };
    }

    /** A {@link Clock} over the guard's time source, so tests on manual time drive the open wait. */
    private static final class TimeSourceClock extends Clock {

        private final TimeSource time;

        TimeSourceClock(TimeSource time) {
            this.time = time;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(time.epochMillis());
        }

        @Override
        public long millis() {
            return time.epochMillis();
        }
    }
}
