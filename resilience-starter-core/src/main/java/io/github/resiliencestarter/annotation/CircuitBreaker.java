package io.github.resiliencestarter.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Guards calls to a downstream with a circuit breaker: when too many of them fail (or are slow)
 * the circuit opens and calls are refused at once, without running the method, until probes show
 * the downstream answers again; then admitted traffic ramps up over a warm-up window.
 *
 * <p>Placed inside {@link Retry}: each attempt is one call through the breaker, and an open
 * circuit ends the retries at once. A refused call answers with the fallback method when there
 * is one, else with {@code CircuitOpenException} (HTTP 503 {@code circuit-open} with
 * {@code Retry-After}). Methods that call the same downstream share a breaker by sharing its
 * name. Needs {@code resilience4j-circuitbreaker} on the class path. Settings come from
 * {@code resilience.circuit-breaker.instances.<name>.*}, then {@code resilience.circuit-breaker.*}.
 *
 * <pre>{@code
 * @Retry(name = "inventory")
 * @CircuitBreaker(name = "inventory")
 * public Reservation reserve(String sku, int quantity) { ... }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface CircuitBreaker {

    /**
     * The breaker, shared by every method that names it, and the configuration instance its
     * settings come from ({@code resilience.circuit-breaker.instances.<name>}). Empty: a breaker
     * of this method alone ({@code SimpleClassName.method}), on the defaults.
     *
     * @return the breaker's name
     */
    String name() default "";

    /**
     * A method of the same class called instead of throwing when the call was refused or failed.
     * It takes the same parameters, optionally followed by one {@link Throwable} (sub)type, and
     * returns a compatible type; the variant whose exception parameter is closest to the error
     * wins. Checked at startup.
     *
     * @return the fallback method's name, or empty for none
     */
    String fallbackMethod() default "";
}
