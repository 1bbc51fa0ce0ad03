package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.retry.RetryClassifier;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.service.annotation.HttpExchange;

/**
 * Decides at startup whether a {@code @Retry} method is known to be safe to repeat: declared
 * {@code @Retry(idempotent = true)}, annotated with an idempotency annotation, mapped only to HTTP
 * methods that are idempotent by definition (a handler, or an HTTP interface client's method such as
 * a {@code @GetExchange}), or retrying only failures where nothing was sent.
 */
public final class RetrySafetyGate {

    private static final boolean WEB = ClassUtils.isPresent(
            "org.springframework.web.bind.annotation.RequestMapping", RetrySafetyGate.class.getClassLoader());

    private final RetrySafetyMode mode;

    private final List<Class<? extends Annotation>> idempotencyAnnotations;

    /**
     * Creates the gate.
     *
     * @param mode what to do with unsafe methods
     * @param idempotencyAnnotations annotations that make a method idempotent (such as
     *     {@code @Idempotent})
     */
    public RetrySafetyGate(RetrySafetyMode mode, List<Class<? extends Annotation>> idempotencyAnnotations) {
        this.mode = mode;
        this.idempotencyAnnotations = List.copyOf(idempotencyAnnotations);
    }

    /**
     * The mode.
     *
     * @return the mode
     */
    public RetrySafetyMode mode() {
        return mode;
    }

    /**
     * Whether {@code method} is known to be safe to repeat.
     *
     * @param method the annotated method
     * @param retry its annotation
     * @return {@code true} when safe
     */
    public boolean isSafe(Method method, Retry retry) {
        return declaredRepeatSafe(retry) || isProvenSafe(method, retry);
    }

    /**
     * Whether the annotation itself says repeating the method is harmless
     * ({@code idempotent = true}, or {@code concurrentSafe = true}, which implies it).
     *
     * @param retry the annotation
     * @return {@code true} when declared
     */
    public static boolean declaredRepeatSafe(Retry retry) {
        return retry.idempotent() || retry.concurrentSafe();
    }

    /**
     * Whether {@code method} is safe to repeat for a reason other than its own declaration: an
     * idempotency annotation, an idempotent HTTP method, or retries of unsent requests only.
     *
     * @param method the annotated method
     * @param retry its annotation
     * @return {@code true} when safe without {@code idempotent = true}
     */
    public boolean isProvenSafe(Method method, Retry retry) {
        return isIdempotentByDeclaration(method) || retriesOnlyUnsent(retry);
    }

    /**
     * Whether every failure the classifier accepts may be retried: the method is idempotent (an
     * idempotency annotation, an idempotent HTTP method, or {@code @Retry(idempotent = true)}).
     * A method that passes the gate only because {@code retryFor} lists unsent-request types is
     * retried only when a request was provably not sent, never on a read timeout or a 5xx.
     *
     * @param method the annotated method
     * @param retry its annotation
     * @return {@code true} when any retryable failure may be retried
     */
    public boolean retriesAnyFailure(Method method, Retry retry) {
        return declaredRepeatSafe(retry) || isIdempotentByDeclaration(method);
    }

    /**
     * Whether {@code method} may be hedged: run twice at the same time on purpose. Allowed for a
     * method declared {@code @Retry(concurrentSafe = true)} or mapped only to safe HTTP methods
     * (GET, HEAD, OPTIONS), and for any method in mode {@link RetrySafetyMode#ALLOW}. Safe to repeat
     * is not enough: a PUT or DELETE, {@code idempotent = true} and an idempotency annotation all say
     * that a second call after the first changes nothing, not that two at once do (the annotation
     * deduplicates requests outside the retry, not the attempts inside one claim); a method safe
     * only for unsent requests is the opposite of what hedging does.
     *
     * @param method the annotated method
     * @param retry its annotation
     * @return {@code true} when hedging is allowed
     */
    public boolean allowsHedging(Method method, Retry retry) {
        return mode == RetrySafetyMode.ALLOW || retry.concurrentSafe() || (WEB && WebMethods.isSafeHandler(method));
    }

    /**
     * The startup failure message for a hedged method that may not be hedged.
     *
     * @param operation the method's full name
     * @param idempotentAnnotated whether the method carries an idempotency annotation
     * @return the message
     */
    public static String unsafeHedgingMessage(String operation, boolean idempotentAnnotated) {
        String why = idempotentAnnotated
                ? "the idempotency claim is made once, outside @Retry, so two attempts running at the same time "
                        + "would both execute inside it"
                : "the method is not known to be safe to run twice at once (safe to repeat, as a PUT is, is not "
                        + "enough)";
        return "@Retry(hedgeDelay) on " + operation + " sends the same request twice at the same time on purpose, "
                + "but " + why + " (rules R-1, C-2).";
    }

    /** How to make a hedged method the gate refuses acceptable. */
    public static final String UNSAFE_HEDGING_ACTION = "Hedge only reads that are safe to run twice at once: map the "
            + "method to GET, HEAD or OPTIONS, or declare @Retry(concurrentSafe = true) if running it twice at the "
            + "same time is harmless; otherwise remove hedgeDelay. "
            + "resilience.retry.safety-gate=ALLOW switches the check off.";

    /**
     * Whether {@code method} carries one of the idempotency annotations.
     *
     * @param method the method
     * @return {@code true} when annotated
     */
    public boolean hasIdempotencyAnnotation(Method method) {
        for (Class<? extends Annotation> annotation : idempotencyAnnotations) {
            if (AnnotatedElementUtils.hasAnnotation(method, annotation)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code method} is idempotent by what it declares: an idempotency annotation, or a
     * handler mapped only to HTTP methods idempotent by definition (GET, HEAD, PUT, DELETE, OPTIONS).
     *
     * @param method the method
     * @return {@code true} when declared idempotent
     */
    public boolean isIdempotentByDeclaration(Method method) {
        return hasIdempotencyAnnotation(method) || (WEB && WebMethods.isIdempotentHandler(method));
    }

    /**
     * The startup failure message for an unsafe method.
     *
     * @param operation the method's full name
     * @return the message
     */
    public static String unsafeMessage(String operation) {
        return "@Retry on " + operation + " may repeat a non-idempotent operation (rules R-1, C-2).";
    }

    /** How to make a method the gate refuses safe to retry. */
    public static final String UNSAFE_ACTION = "Fix it in one of three ways: (1) add @Idempotent, so a client's "
            + "duplicate is replayed and not run again; it guards the whole call, not each attempt: an attempt whose "
            + "writes committed is never retried on the JDBC store in the business transaction, but with other "
            + "stores, or writes outside that transaction (messages, other services), a retried attempt repeats what "
            + "the failed one did, so make those writes idempotent themselves (a unique business key, a derived "
            + "downstream key); (2) make it a GET, HEAD, PUT, DELETE or OPTIONS handler (or HTTP interface method) if that is what it is; "
            + "(3) declare @Retry(idempotent = true) if repeating it is harmless. Or set "
            + "resilience.retry.safety-gate=WARN (retries only requests that were never sent) or ALLOW.";

    private static boolean retriesOnlyUnsent(Retry retry) {
        if (retry.retryFor().length == 0) {
            return false;
        }
        for (Class<? extends Throwable> type : retry.retryFor()) {
            if (!RetryClassifier.isRequestNotSentType(type)) {
                return false;
            }
        }
        return true;
    }

    /** Kept apart so spring-web is loaded only when present. */
    private static final class WebMethods {

        /** Safe to repeat (RFC 9110 section 9.2.2): a second request after the first changes nothing more. */
        private static final Set<RequestMethod> IDEMPOTENT = EnumSet.of(RequestMethod.GET, RequestMethod.HEAD,
                RequestMethod.PUT, RequestMethod.DELETE, RequestMethod.OPTIONS);

        /** Safe (RFC 9110 section 9.2.1): changes nothing, so two at once are harmless too. */
        private static final Set<RequestMethod> SAFE = EnumSet.of(RequestMethod.GET, RequestMethod.HEAD,
                RequestMethod.OPTIONS);

        static boolean isIdempotentHandler(Method method) {
            return mappedOnlyTo(method, IDEMPOTENT);
        }

        static boolean isSafeHandler(Method method) {
            return mappedOnlyTo(method, SAFE);
        }

        private static boolean mappedOnlyTo(Method method, Set<RequestMethod> allowed) {
            RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
            if (mapping == null) {
                // a method of an HTTP interface client: the request it sends has one method, or none declared
                HttpExchange exchange = AnnotatedElementUtils.findMergedAnnotation(method, HttpExchange.class);
                RequestMethod sent = exchange == null ? null : RequestMethod.resolve(exchange.method());
                return sent != null && allowed.contains(sent);
            }
            if (mapping.method().length == 0) {
                // a mapping that accepts every method (POST included)
                return false;
            }
            for (RequestMethod requestMethod : mapping.method()) {
                if (!allowed.contains(requestMethod)) {
                    return false;
                }
            }
            return true;
        }
    }
}
