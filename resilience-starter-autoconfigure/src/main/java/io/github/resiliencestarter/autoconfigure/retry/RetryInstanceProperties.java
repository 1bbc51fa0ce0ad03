package io.github.resiliencestarter.autoconfigure.retry;

import org.jspecify.annotations.Nullable;

/**
 * Retry settings of one named instance ({@code resilience.retry.instances.<name>.*}); unset values
 * come from the defaults.
 */
public class RetryInstanceProperties extends RetrySettings {

    /**
     * Whether this instance's retries count against a retry budget (default true). Switch it off
     * for retries of local contention, such as optimistic-lock conflicts, where no downstream can
     * be overloaded.
     */
    private @Nullable Boolean budgetEnabled;

    public @Nullable Boolean getBudgetEnabled() {
        return budgetEnabled;
    }

    public void setBudgetEnabled(@Nullable Boolean budgetEnabled) {
        this.budgetEnabled = budgetEnabled;
    }
}
