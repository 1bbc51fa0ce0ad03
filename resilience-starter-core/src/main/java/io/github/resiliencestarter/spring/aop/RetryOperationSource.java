package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.retry.AttemptTracing;
import io.github.resiliencestarter.retry.HedgePolicy;
import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.retry.RetryObserver;
import io.github.resiliencestarter.retry.backoff.BackOff;
import io.github.resiliencestarter.retry.backoff.BackOffs;
import io.github.resiliencestarter.retry.backoff.JitterType;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.StringValueResolver;

/**
 * Resolves {@code @Retry} per method: annotation attributes over the named instance over the
 * defaults, the hard cap on attempts, the safety gate, the shared budget and the fallback.
 * Resolved once per method and cached.
 */
public class RetryOperationSource extends AnnotatedOperationSource<Retry, RetryOperation> {

    /** Budgets are kept under the name: two methods must not share one by default. */
    private final DefaultNames defaultNames = new DefaultNames("@Retry");

    private static final Logger log = LoggerFactory.getLogger(RetryOperationSource.class);

    /** Spring Framework 7's own retry annotation, named so the check also runs on Framework 6. */
    static final String SPRING_RETRYABLE = "org.springframework.resilience.annotation.Retryable";

    private volatile Settings settings;

    private final RetrySafetyGate safetyGate;

    private final @Nullable TimeoutRuntime timeoutRuntime;

    private final AttemptTracing attemptTracing;

    private final RetryObserver observer;

    private final StringValueResolver placeholders;

    /**
     * Creates the source.
     *
     * @param registry default and named policies, and the budgets
     * @param safetyGate the startup check of idempotency
     * @param maxAttemptsCap the most attempts any method may configure
     * @param defaultJitterFactor the spread of proportional jitter when the annotation sets none
     * @param timeoutRuntime the runtime for per-attempt timeouts, or {@code null}
     * @param observer hears retries and outcomes
     * @param placeholders resolves {@code ${...}} in annotation values
     */
    public RetryOperationSource(RetryConfigRegistry registry, RetrySafetyGate safetyGate, int maxAttemptsCap,
            double defaultJitterFactor, @Nullable TimeoutRuntime timeoutRuntime, RetryObserver observer,
            StringValueResolver placeholders) {
        this(registry, safetyGate, maxAttemptsCap, defaultJitterFactor, timeoutRuntime, observer, placeholders,
                new OperationGenerations(), AttemptTracing.NONE);
    }

    /**
     * Creates a source whose settings are published with the other sources' of
     * {@code generations}.
     *
     * @param registry default and named policies, and the budgets
     * @param safetyGate the startup check of idempotency
     * @param maxAttemptsCap the most attempts any method may configure
     * @param defaultJitterFactor the spread of proportional jitter when the annotation sets none
     * @param timeoutRuntime the runtime for per-attempt timeouts, or {@code null}
     * @param observer hears retries and outcomes
     * @param placeholders resolves {@code ${...}} in annotation values
     * @param generations the generations shared with the other tunable sources
     * @param attemptTracing gives each attempt its span
     */
    public RetryOperationSource(RetryConfigRegistry registry, RetrySafetyGate safetyGate, int maxAttemptsCap,
            double defaultJitterFactor, @Nullable TimeoutRuntime timeoutRuntime, RetryObserver observer,
            StringValueResolver placeholders, OperationGenerations generations, AttemptTracing attemptTracing) {
        super(Retry.class, generations);
        this.attemptTracing = attemptTracing;
        this.settings = new Settings(registry, maxAttemptsCap, defaultJitterFactor);
        this.safetyGate = safetyGate;
        this.timeoutRuntime = timeoutRuntime;
        this.observer = observer;
        this.placeholders = placeholders;
    }

    /**
     * The settings {@code @Retry} methods are resolved with, replaced as a whole by live tuning.
     *
     * @param registry default and named policies, and the budgets
     * @param maxAttemptsCap the most attempts any method may configure
     * @param defaultJitterFactor the spread of proportional jitter when the annotation sets none
     */
    public record Settings(RetryConfigRegistry registry, int maxAttemptsCap, double defaultJitterFactor) {
    }

    @Override
    protected RetryOperation build(Retry annotation, Method method, @Nullable Class<?> targetClass) {
        return build(annotation, method, targetClass, settings);
    }

    /**
     * Prepares new settings for every {@code @Retry} method (live tuning).
     *
     * @param next the new settings
     * @return the step that publishes them
     * @throws RuntimeException when a method refuses them (an attempt count above a lowered cap)
     */
    public Runnable prepare(Settings next) {
        return prepare((annotation, method, targetClass) -> build(annotation, method, targetClass, next),
                () -> settings = next);
    }

    /**
     * The settings in force.
     *
     * @return the registry, cap and default jitter factor
     */
    public Settings settings() {
        return settings;
    }

    private RetryOperation build(Retry annotation, Method method, @Nullable Class<?> targetClass,
            Settings settings) {
        RetryConfigRegistry registry = settings.registry();
        int maxAttemptsCap = settings.maxAttemptsCap();
        double defaultJitterFactor = settings.defaultJitterFactor();
        String name = AnnotatedMethods.operationName(method, targetClass);
        String described = AnnotatedMethods.describe(method, targetClass);
        refuseSecondRetryLayer(method, targetClass, described);
        RetryConfig base = registry.config(annotation.name());
        RetryConfig.Builder policy = RetryConfig.from(base);

        int attempts = annotation.maxAttempts() == -1 ? base.maxAttempts() : annotation.maxAttempts();
        if (attempts < 1 || attempts > maxAttemptsCap) {
            throw new InvalidDeclarationException("@Retry on " + described + " asks for " + attempts
                    + " attempts; allowed are 1 to " + maxAttemptsCap + ".", "Lower maxAttempts, or raise "
                    + "resilience.retry.max-attempts-cap if that many attempts are really wanted.");
        }
        policy.maxAttempts(attempts);

        Duration delay = AnnotationValues.duration(annotation.delay(), placeholders, "@Retry(delay)", name, true);
        Duration maxDelay = AnnotationValues.duration(annotation.maxDelay(), placeholders, "@Retry(maxDelay)", name,
                true);
        Double multiplier = annotation.multiplier() == -1 ? null : annotation.multiplier();
        try {
            BackOff backOff = BackOffs.override(base.backOff(), annotation.backoff(), delay, maxDelay, multiplier);
            policy.backOff(backOff);
            if (annotation.jitter() != JitterType.DEFAULT) {
                policy.jitter(annotation.jitter().toJitter(
                        annotation.jitterFactor() >= 0 ? annotation.jitterFactor() : defaultJitterFactor));
            }
        } catch (IllegalArgumentException ex) {
            throw new InvalidDeclarationException("@Retry on " + described + " has an invalid back-off: "
                    + ex.getMessage() + ".", "Correct the back-off attributes of the annotation, or of the "
                    + "resilience.retry settings it inherits (see docs/retry.md).", ex);
        }
        boolean declaredIdempotent = safetyGate.retriesAnyFailure(method, annotation);
        if (annotation.retryFor().length > 0 || annotation.noRetryFor().length > 0 || declaredIdempotent) {
            // an operation declared idempotent may repeat after any I/O failure; others keep only the
            // failures the rules know to be transient
            policy.classifier(base.classifier().toBuilder().retryFor(List.of(annotation.retryFor()))
                    .noRetryFor(List.of(annotation.noRetryFor())).ioFailuresTransient(declaredIdempotent).build());
        }
        Duration attemptTimeout = AnnotationValues.duration(annotation.attemptTimeout(), placeholders,
                "@Retry(attemptTimeout)", name, false);
        if (attemptTimeout != null) {
            policy.attemptTimeout(attemptTimeout);
        }
        policy.budget(registry.budget(annotation.name().isEmpty() ? defaultNames.take(name, method, targetClass)
                : annotation.name()));
        // before the gate: its WARN mode narrows retries to unsent requests, which hedging contradicts
        applyHedging(method, annotation, name, described, base, attempts, policy);
        applySafetyGate(method, annotation, described, policy);

        Class<?> owner = targetClass != null ? targetClass : method.getDeclaringClass();
        FallbackMethod fallback = FallbackMethod.resolve("@Retry", annotation.fallbackMethod(), method, owner);
        Retrier retrier = Retrier.builder(name, policy.build()).observer(observer).timeoutRuntime(timeoutRuntime)
                .attemptTracing(attemptTracing).build();
        boolean declaredOnly = RetrySafetyGate.declaredRepeatSafe(annotation)
                && !safetyGate.isProvenSafe(method, annotation);
        return new RetryOperation(name, retrier, fallback, declaredOnly,
                ResultKind.governable(method, "@Retry", described), sharesSettings(method, targetClass));
    }

    /**
     * Spring's {@code @Retryable} next to {@code @Retry} would retry in two layers: attempts
     * multiply (3 x 3 = 9 calls) and neither layer's budget, deadline check or safety gate sees the
     * other's. Refused at startup, naming the method; on a type it covers every method of it.
     */
    private static void refuseSecondRetryLayer(Method method, @Nullable Class<?> targetClass, String described) {
        Class<?> owner = targetClass != null ? targetClass : method.getDeclaringClass();
        boolean onMethod = MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY).isPresent(SPRING_RETRYABLE);
        boolean onType = MergedAnnotations.from(owner, SearchStrategy.TYPE_HIERARCHY).isPresent(SPRING_RETRYABLE);
        if (onMethod || onType) {
            throw new InvalidDeclarationException("@Retry on " + described + " meets Spring's @Retryable on its "
                    + (onMethod ? "method" : "class") + ": the call would be retried in two layers, and the "
                    + "attempts would multiply.", "Keep one of the two annotations (see docs/retry.md).");
        }
    }

    /**
     * Hedging from {@code hedgeDelay} and {@code maxHedges}, else from the instance's config; refused
     * at startup, naming the method, where it cannot be right: a method not safe to run twice at
     * once, fewer than 2 attempts, or no timeout executor to run the parallel attempts on.
     */
    private void applyHedging(Method method, Retry annotation, String name, String described, RetryConfig base,
            int attempts, RetryConfig.Builder policy) {
        HedgePolicy hedge = base.hedge();
        String delay = annotation.hedgeDelay().isEmpty() ? "" : placeholders.resolveStringValue(annotation.hedgeDelay());
        if (delay != null && !delay.isBlank()) {
            hedge = parseHedgeDelay(delay.trim(), annotation.hedgeDelay(), name, described);
        }
        if (annotation.maxHedges() != -1) {
            if (hedge == null) {
                throw new InvalidDeclarationException("@Retry on " + described + " sets maxHedges without "
                        + "hedgeDelay, so it would never hedge.", "Set hedgeDelay (\"50ms\" or \"p95\"), or remove "
                        + "maxHedges.");
            }
            try {
                hedge = hedge.maxHedges(annotation.maxHedges());
            } catch (IllegalArgumentException ex) {
                throw new InvalidDeclarationException("@Retry(maxHedges) on " + described + " is "
                        + annotation.maxHedges() + ": " + ex.getMessage() + ".", "Write 1 or more, or leave it "
                        + "unset for 1.", ex);
            }
        }
        if (hedge == null) {
            return;
        }
        if (!safetyGate.allowsHedging(method, annotation)) {
            throw new InvalidDeclarationException(RetrySafetyGate.unsafeHedgingMessage(described,
                    safetyGate.hasIdempotencyAnnotation(method)), RetrySafetyGate.UNSAFE_HEDGING_ACTION);
        }
        if (attempts < 2) {
            throw new InvalidDeclarationException("@Retry on " + described + " hedges with maxAttempts = " + attempts
                    + ": a hedge is an attempt, so there is none left for it.", "Set maxAttempts to at least 2 "
                    + "(2 = one hedge and no retry), or remove hedgeDelay.");
        }
        if (timeoutRuntime == null) {
            throw new InvalidDeclarationException("@Retry(hedgeDelay) on " + described + " needs the @Timeout "
                    + "executor to run its parallel attempts, and timeouts are switched off.", "Set "
                    + "resilience.timeout.enabled=true, or remove hedgeDelay.");
        }
        policy.hedge(hedge);
    }

    /** {@code "p95"} (a percentile) or a duration ({@code "50ms"}). */
    private HedgePolicy parseHedgeDelay(String value, String raw, String name, String described) {
        if (value.length() > 1 && (value.charAt(0) == 'p' || value.charAt(0) == 'P')
                && Character.isDigit(value.charAt(1))) {
            try {
                return HedgePolicy.atPercentile(Double.parseDouble(value.substring(1)));
            } catch (IllegalArgumentException ex) {
                throw new InvalidDeclarationException("@Retry(hedgeDelay) on " + described + " has an invalid "
                        + "percentile '" + raw + "' (resolved to '" + value + "').", "Write a percentile above 0 and "
                        + "below 100 such as p95 or p99.9, or a duration such as 50ms.", ex);
            }
        }
        // a value that is there parses to a duration or fails naming the annotation
        Duration fixed = Objects.requireNonNull(
                AnnotationValues.duration(value, null, "@Retry(hedgeDelay)", name, true));
        return HedgePolicy.after(fixed);
    }

    private void applySafetyGate(Method method, Retry annotation, String described, RetryConfig.Builder policy) {
        if (safetyGate.mode() == RetrySafetyMode.ALLOW || safetyGate.retriesAnyFailure(method, annotation)) {
            return;
        }
        if (safetyGate.isSafe(method, annotation)) {
            // safe only because retryFor names unsent-request types: listing them must not open
            // the door to read timeouts and 5xx, which may have reached the other side
            policy.onlyUnsentFailures(true);
            return;
        }
        if (safetyGate.mode() == RetrySafetyMode.FAIL) {
            throw new InvalidDeclarationException(RetrySafetyGate.unsafeMessage(described),
                    RetrySafetyGate.UNSAFE_ACTION);
        }
        log.warn("{} {} Until then it retries only requests that were never sent.",
                RetrySafetyGate.unsafeMessage(described), RetrySafetyGate.UNSAFE_ACTION);
        policy.onlyUnsentFailures(true);
    }
}
