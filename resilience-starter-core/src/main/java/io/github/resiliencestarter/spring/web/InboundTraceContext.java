package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.InboundBudget;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an inbound request's trace context from its headers, the same way for servlet and reactive
 * servers.
 *
 * <p>Trace id: the tracer's current span's (when a tracer is plugged in and a span is current:
 * one request, one id), else a valid {@code X-Trace-Id}, else the W3C {@code traceparent}
 * trace-id, else a new one. Budget: the smallest valid of
 * {@code X-Timeout-Budget-Ms}, {@code grpc-timeout} and {@code x-envoy-expected-rq-timeout-ms},
 * capped, anchored at the moment of reading (call it first thing).
 */
public final class InboundTraceContext {

    private static final Logger log = LoggerFactory.getLogger(InboundTraceContext.class);

    private final @Nullable Duration maxInboundBudget;

    private final @Nullable Duration defaultBudget;

    private final @Nullable Supplier<@Nullable String> currentSpanTraceId;

    private final boolean acceptBudgets;

    /**
     * Creates the reader.
     *
     * @param maxInboundBudget the largest budget a caller may grant, or {@code null} for no cap
     * @param defaultBudget the budget of a request that carries none, or {@code null} for no deadline
     * @param currentSpanTraceId the tracer's current trace id (may return {@code null}), or {@code null}
     */
    public InboundTraceContext(@Nullable Duration maxInboundBudget, @Nullable Duration defaultBudget,
            @Nullable Supplier<@Nullable String> currentSpanTraceId) {
        this(maxInboundBudget, defaultBudget, currentSpanTraceId, true);
    }

    /**
     * Creates the reader.
     *
     * @param maxInboundBudget the largest budget a caller may grant, or {@code null} for no cap
     * @param defaultBudget the budget of a request that carries none, or {@code null} for no deadline
     * @param currentSpanTraceId the tracer's current trace id (may return {@code null}), or {@code null}
     * @param acceptBudgets whether callers' budget headers set the deadline; {@code false}: every
     *     request gets {@code defaultBudget}, whatever it says
     */
    public InboundTraceContext(@Nullable Duration maxInboundBudget, @Nullable Duration defaultBudget,
            @Nullable Supplier<@Nullable String> currentSpanTraceId, boolean acceptBudgets) {
        if (maxInboundBudget != null && (maxInboundBudget.isNegative() || maxInboundBudget.isZero())) {
            // a non-positive cap would answer every request with a spent budget
            throw new InvalidSettingException("maxInboundBudget", "must be positive", maxInboundBudget);
        }
        if (defaultBudget != null && (defaultBudget.isNegative() || defaultBudget.isZero())) {
            throw new InvalidSettingException("defaultBudget", "must be positive", defaultBudget);
        }
        this.maxInboundBudget = maxInboundBudget;
        this.defaultBudget = defaultBudget;
        this.currentSpanTraceId = currentSpanTraceId;
        this.acceptBudgets = acceptBudgets;
    }

    /**
     * The request's context.
     *
     * @param header the request's header by name, {@code null} when absent
     * @return its trace id and deadline
     */
    public TraceContext read(Function<String, @Nullable String> header) {
        Duration budget = !acceptBudgets ? null : InboundBudget.smallest(
                header.apply(ResilienceHeaders.TIMEOUT_BUDGET_MS), header.apply(ResilienceHeaders.GRPC_TIMEOUT),
                header.apply(ResilienceHeaders.ENVOY_EXPECTED_TIMEOUT_MS), maxInboundBudget);
        if (budget == null) {
            budget = defaultBudget;
        }
        // anchored before anything else runs: time spent in later filters counts against the budget
        Deadline deadline = budget != null ? Deadline.after(budget) : null;
        return TraceContext.empty().withTraceId(traceId(header)).withDeadline(deadline);
    }

    private String traceId(Function<String, @Nullable String> header) {
        if (currentSpanTraceId != null) {
            // the tracer read the request's own propagation headers: its id is the request's
            String fromSpan = currentSpanTraceId.get();
            if (fromSpan != null && TraceIds.isValid(fromSpan)) {
                return fromSpan;
            }
        }
        String given = header.apply(ResilienceHeaders.TRACE_ID);
        if (given != null && TraceIds.isValid(given)) {
            return given;
        }
        if (given != null) {
            log.debug("Replacing invalid {} header ({} chars)", ResilienceHeaders.TRACE_ID, given.length());
        }
        String fromTraceparent = TraceIds.fromTraceparent(header.apply(ResilienceHeaders.TRACEPARENT));
        if (fromTraceparent != null) {
            return fromTraceparent;
        }
        return TraceIds.generate();
    }
}
