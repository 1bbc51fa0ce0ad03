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
