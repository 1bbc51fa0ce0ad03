package io.github.resiliencestarter.autoconfigure.web;

import io.github.resiliencestarter.autoconfigure.PropertyChecks;
import io.github.resiliencestarter.context.TraceIdSource;
import io.github.resiliencestarter.spring.web.InboundTraceContext;
import io.github.resiliencestarter.spring.web.TraceContextFilter;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Inbound trace context settings ({@code resilience.trace.*}).
 */
@ConfigurationProperties("resilience.trace")
public class TraceProperties implements Validator {

    /** Largest budget a caller may grant through budget headers; larger values are capped. */
    public static final Duration DEFAULT_MAX_INBOUND_BUDGET = Duration.ofMinutes(5);

    /** Whether the inbound filter opens a trace context for every request. */
    private boolean enabled = true;

    /** Largest budget a caller may grant through X-Timeout-Budget-Ms, grpc-timeout or x-envoy-expected-rq-timeout-ms. */
    private Duration maxInboundBudget = DEFAULT_MAX_INBOUND_BUDGET;

    /**
     * Whether callers' budget headers set the request's deadline; false ignores them (every request
     * gets default-budget), for a service whose callers must not decide how long it works.
     */
    private boolean acceptInboundBudget = true;

    public boolean isAcceptInboundBudget() {
        return acceptInboundBudget;
    }

    public void setAcceptInboundBudget(boolean acceptInboundBudget) {
        this.acceptInboundBudget = acceptInboundBudget;
    }

    /** Budget of a request that carries no budget header; unset means no deadline until a @Timeout sets one. */
    private @Nullable Duration defaultBudget;

    /** Order of the inbound filter; it should run before everything that may take time. */
    private int filterOrder = TraceContextFilter.DEFAULT_ORDER;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getMaxInboundBudget() {
        return maxInboundBudget;
    }

    public void setMaxInboundBudget(Duration maxInboundBudget) {
        this.maxInboundBudget = maxInboundBudget;
    }

    public @Nullable Duration getDefaultBudget() {
        return defaultBudget;
    }

    public void setDefaultBudget(@Nullable Duration defaultBudget) {
        this.defaultBudget = defaultBudget;
    }

    public int getFilterOrder() {
        return filterOrder;
    }

    public void setFilterOrder(int filterOrder) {
        this.filterOrder = filterOrder;
    }

    @Override
    public boolean supports(Class<?> type) {
        return TraceProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        PropertyChecks.reportingTo(errors).check("", () -> toInbound(null));
    }

    /**
     * The reader of inbound requests these properties describe, for either web stack.
     *
     * @param tracerIds the tracer's current trace id, which comes first, or {@code null} without a tracer
     * @return the reader
     */
    public InboundTraceContext toInbound(@Nullable TraceIdSource tracerIds) {
        return new InboundTraceContext(maxInboundBudget, defaultBudget, tracerIds, acceptInboundBudget);
    }
}
