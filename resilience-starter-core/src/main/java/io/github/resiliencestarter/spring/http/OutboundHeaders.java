package io.github.resiliencestarter.spring.http;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The one rule every outbound client adapter applies (RestTemplate/RestClient, WebClient,
 * OpenFeign): send the trace id, the remaining budget minus a margin and the attempt number, and
 * refuse to send anything when no budget beyond the margin is left.
 */
public final class OutboundHeaders {

    private OutboundHeaders() {
    }

    /**
     * Writes the propagation headers for {@code context}.
     *
     * @param context the current trace context
     * @param marginMillis time kept back from the budget sent downstream
     * @param operation names the call in the error, for example {@code GET inventory/stock}
     * @param hasHeader tells whether the request already carries a header
     * @param setHeader sets a header on the request
     * @throws DeadlineExceededException when no more than the margin is left; nothing is sent then
     */
    public static void apply(TraceContext context, long marginMillis, String operation, Predicate<String> hasHeader,
            BiConsumer<String, String> setHeader) {
        if (context.traceId() != null && !hasHeader.test(ResilienceHeaders.TRACE_ID)) {
            setHeader.accept(ResilienceHeaders.TRACE_ID, context.traceId());
        }
        if (context.attempt() > 0) {
            setHeader.accept(ResilienceHeaders.RETRY_ATTEMPT, Integer.toString(context.attempt()));
        }
        Deadline deadline = context.deadline();
        if (deadline != null) {
            long budget = deadline.remainingMillis() - marginMillis;
            if (budget <= 0) {
                throw DeadlineExceededException.budgetSpent(operation);
            }
            setHeader.accept(ResilienceHeaders.TIMEOUT_BUDGET_MS, Long.toString(budget));
        }
    }
}
