package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.retry.RetryRule.Verdict;
import io.github.resiliencestarter.retry.internal.DefaultRetryRules;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether a failure is worth another attempt (rule R-2) and how long its source asked to
 * wait.
 *
 * <p>Order of decision, each step walking the whole cause chain: a never-retryable failure
 * anywhere (non-retryable, spent deadline, open circuit) → no retry, whatever is configured; a
 * {@code noRetryFor} type anywhere → no retry (exclusion wins); a {@code retryFor} type anywhere → retry; otherwise the
 * rules, outermost throwable first, first non-abstaining answer wins; nothing known → no retry.
 * Immutable.
 */
public final class RetryClassifier {

    private static final RetryClassifier DEFAULTS = builder().build();

    /** For an operation declared idempotent: any I/O failure no other rule decided is transient. */
    private static final RetryRule DECLARED_IDEMPOTENT_IO = new RetryRule() {

        @Override
        public Verdict classify(Throwable current) {
            return current instanceof IOException ? Verdict.RETRY : Verdict.ABSTAIN;
        }

        @Override
        public String explain(Throwable current, Verdict verdict) {
            return current.getClass().getSimpleName() + " is an I/O failure of an operation declared idempotent";
        }
    };

    private final List<Class<? extends Throwable>> retryFor;

    private final List<Class<? extends Throwable>> noRetryFor;

    private final List<RetryRule> extraRules;

    private final boolean ioFailuresTransient;

    private final List<RetryRule> rules;

    private final List<RetryAfterSource> retryAfterSources;

    private RetryClassifier(Builder builder) {
        this.retryFor = List.copyOf(builder.retryFor);
        this.noRetryFor = List.copyOf(builder.noRetryFor);
        this.extraRules = List.copyOf(builder.rules);
        this.ioFailuresTransient = builder.ioFailuresTransient;
        List<RetryRule> allRules = new ArrayList<>(builder.rules);
        allRules.add(DefaultRetryRules.INSTANCE);
        if (ioFailuresTransient) {
            // asked last: only an I/O failure no other rule decided
            allRules.add(DECLARED_IDEMPOTENT_IO);
        }
        this.rules = List.copyOf(allRules);
        List<RetryAfterSource> sources = new ArrayList<>(builder.retryAfterSources);
        sources.add(DefaultRetryRules.INSTANCE);
        this.retryAfterSources = List.copyOf(sources);
    }

    /**
     * The default classification of DESIGN §4, with no extra rules.
     *
     * @return the default classifier
     */
    public static RetryClassifier ofDefaults() {
        return DEFAULTS;
    }

    /**
     * A builder with the default rules.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder starting from this classifier's settings.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.retryFor.addAll(retryFor);
        builder.noRetryFor.addAll(noRetryFor);
        builder.rules.addAll(extraRules);
        builder.ioFailuresTransient = ioFailuresTransient;
        builder.retryAfterSources.addAll(retryAfterSources.subList(0, retryAfterSources.size() - 1));
        return builder;
    }

    /**
     * Whether {@code error} is transient.
     *
     * @param error the failure
     * @return {@code true} to retry
     */
    public boolean isRetryable(Throwable error) {
        if (isNeverRetryable(error)) {
            return false;
        }
        if (!noRetryFor.isEmpty() && anyCauseIs(error, noRetryFor)) {
            return false;
        }
        if (!retryFor.isEmpty() && anyCauseIs(error, retryFor)) {
            return true;
        }
        return Causes.firstAnswer(error, this::verdict) == Verdict.RETRY;
    }

    /**
     * Whether {@code other} classifies the same way: the same types, rules (the same instances),
     * sources and I/O setting. Lets a reload tell an unchanged setting from a changed one.
     *
     * @param other another object
     * @return {@code true} for a classifier built from the same parts
     */
    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof RetryClassifier that && ioFailuresTransient == that.ioFailuresTransient
                && retryFor.equals(that.retryFor) && noRetryFor.equals(that.noRetryFor)
                && extraRules.equals(that.extraRules) && retryAfterSources.equals(that.retryAfterSources);
    }

    @Override
    public int hashCode() {
        return Objects.hash(retryFor, noRetryFor, extraRules, ioFailuresTransient);
    }

    /**
     * Whether a {@code noRetryFor} type appears anywhere in {@code error}'s cause chain.
     *
     * @param error the failure
     * @return {@code true} when the configuration excludes it
     */
    public boolean isExcluded(Throwable error) {
        return !noRetryFor.isEmpty() && anyCauseIs(error, noRetryFor);
    }

    /**
     * Why {@code error} is not retried, naming the throwable and the rule that decided; only asked
     * when a call stops, so the success path never builds it.
     *
     * @param error a failure {@link #isRetryable(Throwable)} refused
     * @return a short clause, e.g. "IllegalArgumentException is a client error (rule R-P5)"
     */
    public String explain(Throwable error) {
        Throwable never = Causes.firstAnswer(error,
                current -> DefaultRetryRules.isNeverRetryable(current) ? current : null);
        if (never != null) {
            return DefaultRetryRules.neverRetryableReason(never);
        }
        Throwable excluded = noRetryFor.isEmpty() ? null : Causes.firstAnswer(error,
                current -> noRetryFor.stream().anyMatch(type -> type.isInstance(current)) ? current : null);
        if (excluded != null) {
            return excluded.getClass().getSimpleName() + " is listed in no-retry-for";
        }
        String decided = Causes.firstAnswer(error, current -> {
            for (RetryRule rule : rules) {
                Verdict verdict = rule.classify(current);
                if (verdict != Verdict.ABSTAIN) {
                    return rule.explain(current, verdict);
                }
            }
            return null;
        });
        return decided != null ? decided : error.getClass().getSimpleName()
                + " is not known to be transient, and unknown failures are not retried (rule R-2)";
    }

    private @Nullable Verdict verdict(Throwable current) {
        for (RetryRule rule : rules) {
            Verdict verdict = rule.classify(current);
            if (verdict != Verdict.ABSTAIN) {
                return verdict;
            }
        }
        return null;
    }

    /**
     * How long the failure's source asked to wait ({@code Retry-After}), or {@code null}.
     *
     * @param error the failure
     * @return the requested wait, or {@code null}
     */
    public @Nullable Duration retryAfter(Throwable error) {
        return Causes.firstAnswer(error, current -> {
            for (RetryAfterSource source : retryAfterSources) {
                Duration wait = source.retryAfter(current);
                if (wait != null) {
                    return wait;
                }
            }
            return null;
        });
    }

    /**
     * Whether the failure happened before the request reached the remote side (connection
     * refused, connect timeout): safe to retry even for operations that are not idempotent.
     *
     * @param error the failure
     * @return {@code true} when nothing was sent
     */
    public static boolean isRequestNotSent(Throwable error) {
        return anyCause(error, DefaultRetryRules::isNotSent);
    }

    /**
     * Whether every failure of {@code type} happened before the request was sent.
     *
     * @param type an exception type
     * @return {@code true} for refused-connection and connect-timeout types
     */
    public static boolean isRequestNotSentType(Class<? extends Throwable> type) {
        return DefaultRetryRules.isNotSentType(type);
    }

    /**
     * Whether the failure, or any of its causes, ends the retries whatever the configuration
     * says: a {@link NonRetryableException} (idempotency conflicts included), a spent deadline or
     * an open circuit.
     *
     * @param error the failure
     * @return {@code true} when it is never retried
     */
    public static boolean isNeverRetryable(Throwable error) {
        return anyCause(error, DefaultRetryRules::isNeverRetryable);
    }

    private static boolean anyCauseIs(Throwable error, List<Class<? extends Throwable>> types) {
        return anyCause(error, current -> {
            for (Class<? extends Throwable> type : types) {
                if (type.isInstance(current)) {
                    return true;
                }
            }
            return false;
        });
    }

    private static boolean anyCause(Throwable error, Predicate<Throwable> test) {
        return Causes.firstAnswer(error, current -> test.test(current) ? Boolean.TRUE : null) != null;
    }

    /** Builds a {@link RetryClassifier}. */
    public static final class Builder {

        private final List<Class<? extends Throwable>> retryFor = new ArrayList<>();

        private final List<Class<? extends Throwable>> noRetryFor = new ArrayList<>();

        private final List<RetryRule> rules = new ArrayList<>();

        private final List<RetryAfterSource> retryAfterSources = new ArrayList<>();

        private boolean ioFailuresTransient;

        private Builder() {
        }

        /**
         * For operations declared idempotent: any I/O failure no rule decided (a connection reset,
         * a broken pipe, an early EOF, a plain {@code IOException}, wherever it is in the cause
         * chain) is transient. Repeating such an operation is safe even when the request may have
         * reached the other side, so "unknown" I/O failures are worth another attempt.
         *
         * @param value whether unknown I/O failures are retried
         * @return this builder
         */
        public Builder ioFailuresTransient(boolean value) {
            ioFailuresTransient = value;
            return this;
        }

        /**
         * Types that are retried wherever they appear in the cause chain.
         *
         * @param types the types
         * @return this builder
         */
        public Builder retryFor(List<Class<? extends Throwable>> types) {
            types.forEach(type -> retryFor.add(Objects.requireNonNull(type)));
            return this;
        }

        /**
         * Types that are never retried wherever they appear in the cause chain; wins over
         * {@link #retryFor}.
         *
         * @param types the types
         * @return this builder
         */
        public Builder noRetryFor(List<Class<? extends Throwable>> types) {
            types.forEach(type -> noRetryFor.add(Objects.requireNonNull(type)));
            return this;
        }

        /**
         * A rule asked before the default rules.
         *
         * @param rule the rule
         * @return this builder
         */
        public Builder rule(RetryRule rule) {
            rules.add(Objects.requireNonNull(rule));
            return this;
        }

        /**
         * A source of requested waits asked before the default one.
         *
         * @param source the source
         * @return this builder
         */
        public Builder retryAfterSource(RetryAfterSource source) {
            retryAfterSources.add(Objects.requireNonNull(source));
            return this;
        }

        /**
         * Builds the classifier.
         *
         * @return the classifier
         */
        public RetryClassifier build() {
            return new RetryClassifier(this);
        }
    }
}
