package io.github.resiliencestarter.retry;

/**
 * Limits retries in proportion to calls, so a broadly failing downstream sees little more than
 * its normal load instead of a multiple of it (rules R-6, R-P2). Implementations are thread-safe;
 * see {@code retry.support.RatioRetryBudget}.
 */
public interface RetryBudget {

    /** A budget that never denies; for tests and for callers with their own protection. */
    RetryBudget UNLIMITED = new RetryBudget() {
        @Override
        public void recordCall() {
        }

        @Override
        public boolean tryAcquireRetry() {
            return true;
        }
    };

    /** Records one call (a first attempt). Called on every call, so it must be cheap. */
    void recordCall();

    /**
     * Takes one retry from the budget.
     *
     * @return {@code true} when the retry may go ahead
     */
    boolean tryAcquireRetry();
}
