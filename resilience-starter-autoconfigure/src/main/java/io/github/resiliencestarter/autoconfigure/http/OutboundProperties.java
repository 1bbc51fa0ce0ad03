package io.github.resiliencestarter.autoconfigure.http;

import io.github.resiliencestarter.spring.http.TraceContextClientInterceptor;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Outbound propagation settings ({@code resilience.outbound.*}). */
@ConfigurationProperties("resilience.outbound")
public class OutboundProperties {

    /** Whether RestTemplate and RestClient builders get the propagation interceptor. */
    private boolean enabled = true;

    /** Time kept back from the budget sent downstream; a request is not sent when no more than this is left. */
    private Duration budgetMargin = TraceContextClientInterceptor.DEFAULT_BUDGET_MARGIN;

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
}
