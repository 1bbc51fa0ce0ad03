package io.github.resiliencestarter.spring.web;

import com.alibaba.fastjson2.JSON;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.InboundBudget;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Opens the request's trace context, first thing in the chain.
 *
 * <p>Trace id: a valid {@code X-Trace-Id}, else the W3C {@code traceparent} trace-id, else the
 * tracer's current span (when one is plugged in), else a new one; echoed as {@code X-Trace-Id}.
 * Budget: the smallest valid of {@code X-Timeout-Budget-Ms}, {@code grpc-timeout} and
 * {@code x-envoy-expected-rq-timeout-ms}, capped, anchored at the moment the request arrived;
 * an already spent budget is answered with a 504 problem and the handler never runs. The MDC key
 * {@code traceId} is set for the request and removed afterwards.
 */
public class TraceContextFilter extends OncePerRequestFilter implements Ordered {

    /** Default order: right after character encoding, before security and everything else. */
    public static final int DEFAULT_ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

    private static final Logger log = LoggerFactory.getLogger(TraceContextFilter.class);

    private final @Nullable Duration maxInboundBudget;

    private final @Nullable Duration defaultBudget;

    private final @Nullable Supplier<@Nullable String> currentSpanTraceId;

    private int order = DEFAULT_ORDER;

    /**
     * Creates the filter.
     *
     * @param maxInboundBudget the largest budget a caller may grant, or {@code null} for no cap
     * @param defaultBudget the budget of a request that carries none, or {@code null} for no deadline
     * @param currentSpanTraceId the tracer's current trace id (may return {@code null}), or {@code null}
     */
    public TraceContextFilter(@Nullable Duration maxInboundBudget, @Nullable Duration defaultBudget,
            @Nullable Supplier<@Nullable String> currentSpanTraceId) {
        this.maxInboundBudget = maxInboundBudget;
        this.defaultBudget = defaultBudget;
        this.currentSpanTraceId = currentSpanTraceId;
    }

    /**
     * Sets the filter's order.
     *
     * @param order the order
     */
    public void setOrder(int order) {
        this.order = order;
    }

    @Override
    public int getOrder() {
        return order;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Duration budget = InboundBudget.smallest(request.getHeader(ResilienceHeaders.TIMEOUT_BUDGET_MS),
                request.getHeader(ResilienceHeaders.GRPC_TIMEOUT),
                request.getHeader(ResilienceHeaders.ENVOY_EXPECTED_TIMEOUT_MS), maxInboundBudget);
        if (budget == null) {
            budget = defaultBudget;
        }
        // anchored before anything else runs: time spent in later filters counts against the budget
        Deadline deadline = budget != null ? Deadline.after(budget) : null;
        String traceId = resolveTraceId(request);
        response.setHeader(ResilienceHeaders.TRACE_ID, traceId);
        TraceContext context = TraceContext.empty().withTraceId(traceId).withDeadline(deadline);
        try (TraceScope scope = TraceContextHolder.open(context)) {
            if (context.isExpired()) {
                log.debug("Inbound budget already spent; answering 504 without running the handler");
                writeProblem(request, response, ResilienceProblems.deadlineExceeded(
                        "The caller's time budget was already spent when the request arrived"));
                return;
            }
            chain.doFilter(request, response);
        }
    }

    private String resolveTraceId(HttpServletRequest request) {
        String header = request.getHeader(ResilienceHeaders.TRACE_ID);
        if (TraceIds.isValid(header)) {
            return header;
        }
        if (header != null) {
            log.debug("Replacing invalid {} header ({} chars)", ResilienceHeaders.TRACE_ID, header.length());
        }
        String fromTraceparent = TraceIds.fromTraceparent(request.getHeader(ResilienceHeaders.TRACEPARENT));
        if (fromTraceparent != null) {
            return fromTraceparent;
        }
        if (currentSpanTraceId != null) {
            String fromSpan = currentSpanTraceId.get();
            if (TraceIds.isValid(fromSpan)) {
                return fromSpan;
            }
        }
        return TraceIds.generate();
    }

    private static void writeProblem(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem)
            throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", String.valueOf(problem.getType()));
        body.put("title", problem.getTitle());
        body.put("status", problem.getStatus());
        body.put("detail", problem.getDetail());
        body.put("instance", request.getRequestURI());
        if (problem.getProperties() != null) {
            body.putAll(problem.getProperties());
        }
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getOutputStream().write(JSON.toJSONBytes(body));
    }
}
