package io.github.resiliencestarter.spring.web;

import com.alibaba.fastjson2.JSON;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
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

    /** The request attribute keeping the context for the async dispatch of the same request. */
    static final String CONTEXT_ATTRIBUTE = TraceContextFilter.class.getName() + ".context";

    private final InboundTraceContext inbound;

    private int order = DEFAULT_ORDER;

    private String problemTypeBase = ResilienceProblems.TYPE_BASE;

    /**
     * Creates the filter.
     *
     * @param maxInboundBudget the largest budget a caller may grant, or {@code null} for no cap
     * @param defaultBudget the budget of a request that carries none, or {@code null} for no deadline
     * @param currentSpanTraceId the tracer's current trace id (may return {@code null}), or {@code null}
     */
    public TraceContextFilter(@Nullable Duration maxInboundBudget, @Nullable Duration defaultBudget,
            @Nullable Supplier<@Nullable String> currentSpanTraceId) {
        this(new InboundTraceContext(maxInboundBudget, defaultBudget, currentSpanTraceId));
    }

    /**
     * Creates the filter.
     *
     * @param inbound reads each request's trace id and budget
     */
    public TraceContextFilter(InboundTraceContext inbound) {
        this.inbound = inbound;
    }

    /**
     * Sets what the types of the problems this filter answers begin with
     * ({@code resilience.problems.type-base}).
     *
     * @param problemTypeBase an absolute URI, e.g. a documentation URL ending with {@code /}
     */
    public void setProblemTypeBase(String problemTypeBase) {
        this.problemTypeBase = problemTypeBase;
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
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ((isAsyncDispatch(request) || request.getDispatcherType() == DispatcherType.ERROR)
                && request.getAttribute(CONTEXT_ATTRIBUTE) instanceof TraceContext first) {
            // the result of an async handler (a Mono, a future), or the error page of a failure, is
            // rendered here: same trace id and deadline
            try (TraceScope scope = TraceContextHolder.open(first)) {
                chain.doFilter(request, response);
            }
            return;
        }
        TraceContext context = inbound.read(request::getHeader);
        request.setAttribute(CONTEXT_ATTRIBUTE, context);
        response.setHeader(ResilienceHeaders.TRACE_ID, context.traceId());
        try (TraceScope scope = TraceContextHolder.open(context)) {
            if (context.isExpired()) {
                log.debug("Inbound budget already spent; answering 504 without running the handler");
                writeProblem(request, response, ResilienceProblems.deadlineExceeded(
                        "The caller's time budget was already spent when the request arrived"));
                return;
            }
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException | Error failure) {
            // the container logs this failure after the chain has returned: keep the trace id in the
            // MDC for that line (TraceMdcCleanup removes it when the request ends)
            MDC.put(TraceContextHolder.MDC_TRACE_ID, context.traceId());
            throw failure;
        }
    }

    private void writeProblem(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem)
            throws IOException {
        Map<String, Object> body = ResilienceProblems.members(ResilienceProblems.rebase(problem, problemTypeBase),
                request.getRequestURI());
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getOutputStream().write(JSON.toJSONBytes(body));
    }
}
