package io.github.resiliencestarter.autoconfigure.http;

import io.github.resiliencestarter.autoconfigure.PropertyChecks;
import io.github.resiliencestarter.context.BudgetMargin;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/** Outbound propagation settings ({@code resilience.outbound.*}). */
@ConfigurationProperties("resilience.outbound")
public class OutboundProperties implements Validator {

    /** Whether RestTemplate and RestClient builders get the propagation interceptor. */
    private boolean enabled = true;

    /** Time kept back from the budget sent downstream; a request is not sent when no more than this is left. */
    private Duration budgetMargin = BudgetMargin.DEFAULT;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getBudgetMargin() {
        return budgetMargin;
    }

    public void setBudgetMargin(Duration budgetMargin) {
        this.budgetMargin = budgetMargin;
    }

    @Override
    public boolean supports(Class<?> type) {
        return OutboundProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        PropertyChecks.reportingTo(errors).check("", () -> BudgetMargin.checked(budgetMargin));
    }
}
