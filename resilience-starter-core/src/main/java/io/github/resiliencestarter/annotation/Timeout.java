package io.github.resiliencestarter.annotation;

import io.github.resiliencestarter.timeout.TimeoutMode;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Bounds a method call by a deadline.
 *
 * <p>The effective deadline is the earlier of the caller's remaining budget and now +
 * {@link #value()}; when it is already spent the method is not invoked. On a class, applies to
 * every public method. Settings are merged once per method at startup: an attribute set here wins,
 * then {@code resilience.timeout.instances.<name>.*}, then {@code resilience.timeout.*}.
 *
 * <pre>{@code
 * @Timeout("800ms")
 * public Order create(OrderRequest request) { ... }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface Timeout {

    /**
     * The local limit as a duration string ({@code "800ms"}, {@code "2s"}, ISO-8601) or a property
     * placeholder ({@code "${orders.timeout:1s}"}). Empty: taken from the configuration.
     *
     * @return the limit
     */
    String value() default "";

    /**
     * The configuration instance to read unset attributes from
     * ({@code resilience.timeout.instances.<name>}). Empty: only the defaults apply.
     *
     * @return the instance name
     */
    String name() default "";

    /**
     * How the limit is enforced; {@link TimeoutMode#DEFAULT} takes it from the configuration.
     *
     * @return the mode
     */
    TimeoutMode mode() default TimeoutMode.DEFAULT;

    /**
     * Whether the caller's deadline also bounds this call. Switch off only for work that must
     * finish even when the caller has given up.
     *
     * @return {@code true} to inherit (the default)
     */
    boolean inheritDeadline() default true;

    /**
     * A method of the same class called instead of throwing after a timeout or rejection. It takes
     * the same parameters, optionally followed by one {@link Throwable} (sub)type, and returns a
     * compatible type; the variant whose exception parameter is closest to the error wins. Checked
     * at startup.
     *
     * @return the fallback method's name, or empty for none
     */
    String fallbackMethod() default "";
}
