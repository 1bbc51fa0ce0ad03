package io.github.resiliencestarter.annotation;

import io.github.resiliencestarter.idempotent.ClientErrorHandling;
import io.github.resiliencestarter.idempotent.FallbackAnswerHandling;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a method at most once per idempotency key, across every node that shares the store, and
 * answers duplicates with the first result.
 *
 * <pre>{@code
 * @PostMapping("/order/create")
 * @Idempotent(key = "#request.orderNo", name = "ORDER_CREATE", ttl = "30d")
 * public Order create(@RequestBody OrderRequest request) { ... }
 * }</pre>
 *
 * <p>The key comes from {@link #key()} (SpEL over the parameters), else from the
 * {@code Idempotency-Key} request header, else the call is refused (400). The stored key adds the
 * operation name and the caller's principal, so one user can never replay another's response.
 * A key reused with a different payload is refused (422); a duplicate of a call still running
 * waits for it or is refused (409). Unset attributes come from {@code resilience.idempotent.*}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface Idempotent {

    /** Value of {@link #fingerprint()} that switches the payload check off. */
    String NO_FINGERPRINT = "none";

    /**
     * SpEL over the parameters giving the key ({@code "#request.orderNo"}, {@code "#p0"}). Empty:
     * the {@code Idempotency-Key} header of the current request.
     *
     * @return the key expression
     */
    String key() default "";

    /**
     * The operation (business type) the key belongs to; keys of different names never meet.
     * Empty: {@code SimpleClassName.method}.
     *
     * @return the name
     */
    String name() default "";

    /**
     * Whether a call without the {@code Idempotency-Key} header is refused (400, the default) or
     * runs unprotected, counted under the outcome {@code unprotected}: for endpoints whose existing
     * clients send no key yet. Applies to the header only; a key expression is always required.
     * {@code resilience.idempotent.key-optional} lists names to treat so without touching the code.
     *
     * @return {@code false} to let keyless calls through
     */
    boolean required() default true;

    /**
     * How long the completed record is kept ({@code "30d"}, {@code "PT24H"}); empty takes it from
     * the configuration. Keep it longer than the longest window in which clients retry.
     *
     * @return the time to live
     */
    String ttl() default "";

    /**
     * SpEL over the parameters selecting what must be the same for a key to replay (default: all
     * parameters except servlet, principal and binding objects), or {@link #NO_FINGERPRINT}.
     *
     * @return the fingerprint expression
     */
    String fingerprint() default "";

    /**
     * What a duplicate does while the first call is running.
     *
     * @return the strategy
     */
    InProgressStrategy onInProgress() default InProgressStrategy.DEFAULT;

    /**
     * Failure types stored and replayed (as a new instance of the same type) instead of releasing
     * the key; each needs a public {@code (String message)} constructor.
     *
     * @return the cacheable failure types
     */
    Class<? extends Throwable>[] cacheExceptions() default {};

    /**
     * What a failure the client caused (a 4xx {@code ResponseStatusException}, {@code ErrorResponse}
     * or {@code @ResponseStatus} exception) does to the key: {@code REPLAY} it to duplicates, as the
     * IETF draft and Stripe do, or {@code RELEASE} the key so the next duplicate runs again.
     * {@code DEFAULT} takes {@code resilience.idempotent.on-client-error} ({@code REPLAY}).
     *
     * @return the handling
     */
    ClientErrorHandling onClientError() default ClientErrorHandling.DEFAULT;

    /**
     * What an answer produced by a fallback inside the execution (of the method's {@code @Retry} or
     * {@code @CircuitBreaker}, or of a call it makes) does to the key: {@code RELEASE} it, so the
     * client's retry runs the method for real, or {@code STORE} the answer and replay it.
     * {@code DEFAULT} takes {@code resilience.idempotent.on-fallback-answer} ({@code RELEASE}).
     *
     * @return the handling
     */
    FallbackAnswerHandling onFallbackAnswer() default FallbackAnswerHandling.DEFAULT;

    /**
     * Names of fields left out of the stored response, at any depth ({@code "password"}): what the
     * store must not keep. A replay has them empty; the first caller gets them as returned.
     * Added to {@code resilience.idempotent.exclude-fields}.
     *
     * @return the field names
     */
    String[] excludeFields() default {};
}
