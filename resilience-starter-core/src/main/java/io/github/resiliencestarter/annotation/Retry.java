package io.github.resiliencestarter.annotation;

import io.github.resiliencestarter.retry.backoff.BackOffType;
import io.github.resiliencestarter.retry.backoff.JitterType;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Retries a method on transient failures, with back-off and jitter, within the request's deadline
 * and the instance's retry budget.
 *
 * <p>Only methods that are safe to repeat may retry (rules R-1, C-2): at startup a {@code @Retry}
 * method must be {@code @Idempotent}, a GET/HEAD/PUT/DELETE/OPTIONS handler, or declared safe with
 * {@link #idempotent()}; otherwise the start fails (see {@code resilience.retry.safety-gate}).
 * Each attempt runs in its own transaction when the method is also {@code @Transactional}.
 * Unset attributes inherit from {@code resilience.retry.instances.<name>.*}, then from
 * {@code resilience.retry.*}.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface Retry {

    /**
     * The configuration instance, which also names the shared retry budget. Empty: the defaults,
     * and a budget of this method's own.
     *
     * @return the instance name
     */
    String name() default "";

    /**
     * Attempts, counting the first; -1 takes it from the configuration.
     *
     * @return the attempts
     */
    int maxAttempts() default -1;

    /**
     * The back-off strategy.
     *
     * @return the strategy
     */
    BackOffType backoff() default BackOffType.DEFAULT;

    /**
     * The fixed delay, the first exponential delay, or the random minimum ({@code "100ms"}, or a
     * placeholder); empty takes it from the configuration.
     *
     * @return the delay
     */
    String delay() default "";

    /**
     * The exponential cap or the random maximum; empty takes it from the configuration.
     *
     * @return the maximum delay
     */
    String maxDelay() default "";

    /**
     * The exponential growth per retry; -1 takes it from the configuration.
     *
     * @return the multiplier
     */
    double multiplier() default -1;

    /**
     * The jitter strategy.
     *
     * @return the strategy
     */
    JitterType jitter() default JitterType.DEFAULT;

    /**
     * The spread of {@link JitterType#PROPORTIONAL} jitter; -1 takes it from the configuration.
     *
     * @return the factor
     */
    double jitterFactor() default -1;

    /**
     * More failure types to retry, wherever they appear in the cause chain.
     *
     * @return the types
     */
    Class<? extends Throwable>[] retryFor() default {};

    /**
     * Failure types never to retry, wherever they appear in the cause chain; wins over
     * {@link #retryFor()}.
     *
     * @return the types
     */
    Class<? extends Throwable>[] noRetryFor() default {};

    /**
     * Declares that repeating this method is harmless, satisfying the safety gate without
     * {@code @Idempotent}. Say so only when it is true.
     *
     * @return {@code true} when the method is idempotent by nature
     */
    boolean idempotent() default false;

    /**
     * Declares that running this method twice <em>at the same time</em> is harmless (a read, or a
     * write the other side deduplicates), which hedging does on purpose. Stronger than
     * {@link #idempotent()}: a {@code PUT} is safe to repeat, not to run twice at once. Needed to
     * hedge a method that is not a GET, HEAD or OPTIONS handler; implies {@code idempotent}.
     *
     * @return {@code true} when concurrent duplicates are harmless
     */
    boolean concurrentSafe() default false;

    /**
     * A limit for each attempt ({@code "300ms"}); an attempt that runs out of it is interrupted and
     * retried. Empty takes it from the configuration (none by default).
     *
     * @return the attempt limit
     */
    String attemptTimeout() default "";

    /**
     * Hedging, for idempotent reads whose slow calls should not set the caller's p99: a call still
     * running after this delay gets a parallel attempt; the first success wins and the others are
     * cancelled. Empty: no hedging. A duration ({@code "50ms"}, or a placeholder): a fixed delay.
     * {@code "p95"} (any percentile {@code p1} to {@code p99.9}): the method's observed latency
     * percentile, never below 1 ms, and 100 ms until 50 calls were observed.
     *
     * <p>A hedge is an attempt: it has its own number, counts towards {@link #maxAttempts()} and
     * takes a token of the retry budget. Hedged methods run their attempts on the {@code @Timeout}
     * executor. Only for methods that are safe to run twice at the same time: a GET, HEAD or
     * OPTIONS handler, or {@link #concurrentSafe()}. A PUT or DELETE handler, {@code idempotent =
     * true} or {@code @Idempotent} alone is safe to repeat, not to run twice at once: the start
     * fails (docs/retry.md, "Which methods may hedge").
     *
     * @return the hedge delay, a percentile, or empty for none
     */
    String hedgeDelay() default "";

    /**
     * With {@link #hedgeDelay()}: the most parallel attempts beside the first; -1 for the default, 1.
     *
     * @return the hedge limit
     */
    int maxHedges() default -1;

    /**
     * A method of the same class called with the final error after the last attempt failed; same
     * parameters plus an optional trailing {@link Throwable} type. Checked at startup.
     *
     * @return the fallback method's name, or empty for none
     */
    String fallbackMethod() default "";
}
