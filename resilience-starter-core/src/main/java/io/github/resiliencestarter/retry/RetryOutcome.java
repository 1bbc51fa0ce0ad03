package io.github.resiliencestarter.retry;

/** How a retried call ended; the values are the metric tags of DESIGN §9. */
public enum RetryOutcome {

    /** The first attempt succeeded. */
    SUCCESS_WITHOUT_RETRY,

    /** A later attempt succeeded. */
    SUCCESS_WITH_RETRY,

    /** Retried, and the last attempt still failed (attempts exhausted, or no time left). */
    FAILED_WITH_RETRY,

    /** Failed on the first attempt and was not retried (not retryable, or no time left). */
    FAILED_WITHOUT_RETRY,

    /** A retry was due but the retry budget denied it. */
    BUDGET_DENIED,

    /** Observed, not enforced: the first attempt failed and a retry was due, which was not made. */
    WOULD_RETRY;

    /**
     * The lower-case tag value, for example {@code success_with_retry}.
     *
     * @return the tag value
     */
    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
