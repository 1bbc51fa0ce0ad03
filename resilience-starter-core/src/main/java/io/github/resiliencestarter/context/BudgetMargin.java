package io.github.resiliencestarter.context;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;

/**
 * The time every outbound adapter (HTTP clients, gRPC channels) keeps back from the budget it sends
 * downstream, for the network and the answer: a call with no more than this left is not sent.
 */
public final class BudgetMargin {

    /** The default margin. */
    public static final Duration DEFAULT = Duration.ofMillis(20);

    private BudgetMargin() {
    }

    /**
     * A margin, checked.
     *
     * @param margin time kept back from the budget sent downstream
     * @return the margin
     * @throws InvalidSettingException when it is negative
     */
    public static Duration checked(Duration margin) {
        if (margin.isNegative()) {
            throw new InvalidSettingException("budgetMargin", "must not be negative", margin);
        }
        return margin;
    }
}
