package io.github.resiliencestarter.retry;

/**
 * One piece of classification knowledge: says whether a single throwable (not its causes) is
 * retryable, or abstains. The classifier asks rules in order along the cause chain; adapters add
 * rules for their exception types (HTTP status, data access, Redis).
 */
@FunctionalInterface
public interface RetryRule {

    /**
     * Classifies one throwable.
     *
     * @param error the throwable
     * @return {@link Verdict#RETRY}, {@link Verdict#NO_RETRY}, or {@link Verdict#ABSTAIN} when this
     *     rule does not know the type
     */
    Verdict classify(Throwable error);

    /**
     * Why this rule answered as it did, for the retry summary and the WARN line; asked only when a
     * call stops, never on the success path.
     *
     * @param error the throwable this rule classified
     * @param verdict the rule's answer for it, never {@link Verdict#ABSTAIN}
     * @return a short clause naming the failure, ideally with the rule id of RULES.md it applies
     */
    default String explain(Throwable error, Verdict verdict) {
        return error.getClass().getSimpleName() + (verdict == Verdict.RETRY ? " is transient" : " is permanent")
                + " (" + getClass().getSimpleName() + ")";
    }

    /** A rule's answer. */
    enum Verdict {

        /** Transient: another attempt may succeed. */
        RETRY,

        /** Permanent: another attempt cannot help. */
        NO_RETRY,

        /** Not this rule's business. */
        ABSTAIN
    }
}
