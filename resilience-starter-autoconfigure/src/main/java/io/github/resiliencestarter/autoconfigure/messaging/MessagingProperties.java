package io.github.resiliencestarter.autoconfigure.messaging;

import io.github.resiliencestarter.autoconfigure.PropertyChecks;
import io.github.resiliencestarter.context.TraceIdSource;
import io.github.resiliencestarter.messaging.MessageObserver;
import io.github.resiliencestarter.spring.messaging.InboundMessageContext;
import io.github.resiliencestarter.spring.messaging.OutboundMessageHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/** Message adapter settings ({@code resilience.messaging.*}). */
@ConfigurationProperties(MessagingProperties.PREFIX)
public class MessagingProperties implements Validator {

    /** The prefix of these properties. */
    public static final String PREFIX = "resilience.messaging";

    /** The most a received message's expiry may grant, as for HTTP's max-inbound-budget. */
    public static final Duration DEFAULT_MAX_BUDGET = Duration.ofMinutes(5);

    /** Whether templates stamp messages and listener containers open their trace context. */
    private boolean enabled = true;

    /** The most a received message's expiry may grant; a later expiry (a skewed or hostile sender) is cut to it. */
    private Duration maxBudget = DEFAULT_MAX_BUDGET;

    /** The budget of a received message that carries no expiry; none by default (no deadline). */
    private @Nullable Duration defaultBudget;

    /**
     * Destinations (queue, exchange, routing key or topic names) whose messages carry the sender's
     * deadline although no reply is awaited, so that their consumers drop a first delivery that
     * arrives too late. Requests awaiting a reply always carry it; other messages never do.
     */
    private List<String> deadlineDestinations = new ArrayList<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getMaxBudget() {
        return maxBudget;
    }

    public void setMaxBudget(Duration maxBudget) {
        this.maxBudget = maxBudget;
    }

    public @Nullable Duration getDefaultBudget() {
        return defaultBudget;
    }

    public void setDefaultBudget(@Nullable Duration defaultBudget) {
        this.defaultBudget = defaultBudget;
    }

    public List<String> getDeadlineDestinations() {
        return deadlineDestinations;
    }

    public void setDeadlineDestinations(List<String> deadlineDestinations) {
        this.deadlineDestinations = deadlineDestinations;
    }

    /**
     * The writer of sent messages' headers these properties describe.
     *
     * @return the writer
     */
    public OutboundMessageHeaders toOutbound() {
        return new OutboundMessageHeaders(deadlineDestinations);
    }

    /**
     * The reader of received messages these properties describe.
     *
     * @param observer told of dropped messages
     * @param tracerIds the tracer's current trace id, which comes first, or {@code null} without a tracer
     * @return the reader
     */
    public InboundMessageContext toInbound(MessageObserver observer, @Nullable TraceIdSource tracerIds) {
        return new InboundMessageContext(maxBudget, defaultBudget, tracerIds, observer);
    }

    @Override
    public boolean supports(Class<?> type) {
        return MessagingProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        PropertyChecks.reportingTo(errors).check("", () -> toInbound(MessageObserver.NONE, null));
    }
}
