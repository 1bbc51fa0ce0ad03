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
     * A limit for each attempt ({@code "300ms"}); an attempt that runs out of it is interrupted and
     * retried. Empty takes it from the configuration (none by default).
     *
     * @return the attempt limit
     */
    String attemptTimeout() default "";

    /**
     * A method of the same class called with the final error after the last attempt failed; same
     * parameters plus an optional trailing {@link Throwable} type. Checked at startup.
     *
     * @return the fallback method's name, or empty for none
     */
    String fallbackMethod() default "";
}
